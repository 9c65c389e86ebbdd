-- Loaded into mpv by bench/wl-mpv.sh (--script). When playback reaches the
-- end (run mpv with --keep-open=yes so the counters are still there), write
-- the frame counters as "name value" lines to the file named by
-- --script-opts=benchstats-out=FILE, then quit.
local out = mp.get_opt("benchstats-out")
local props = {
    "frame-drop-count", "decoder-frame-drop-count", "vo-delayed-frame-count",
    "estimated-frame-number", "duration",
}

-- playback time, without mpv's start-up (minutes in a TCG guest over 9p)
local started
mp.register_event("playback-restart", function()
    started = started or mp.get_time()
end)

mp.observe_property("eof-reached", "bool", function(_, eof)
    if not eof then
        return
    end
    local f = assert(io.open(out, "w"))
    for _, p in ipairs(props) do
        f:write(p, " ", tostring(mp.get_property_number(p, -1)), "\n")
    end
    f:write("playback-seconds ", string.format("%.3f", mp.get_time() - (started or 0)), "\n")
    f:close()
    mp.command("quit")
end)
