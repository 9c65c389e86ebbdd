set terminal pngcairo size 1400,600 font 'sans,10' noenhanced
set output 'latency.png'
set multiplot layout 1,2
set title 'cyclictest wakeup latency (SCHED_OTHER)'
set logscale x
set xlabel 'us (log)'
set ylabel '% of wakeups <= x'
set yrange [0:100]
set grid
set key bottom right
plot 'lat-cyclictest-hogs-vrq.dat' using 1:2 with steps title 'vrq, hogs load', 'lat-cyclictest-hogs-cfs.dat' using 1:2 with steps title 'cfs, hogs load', 'lat-cyclictest-nice19-vrq.dat' using 1:2 with steps title 'vrq, nice19 load', 'lat-cyclictest-nice19-cfs.dat' using 1:2 with steps title 'cfs, nice19 load', 'lat-cyclictest-normal-vrq.dat' using 1:2 with steps title 'vrq, normal load', 'lat-cyclictest-normal-cfs.dat' using 1:2 with steps title 'cfs, normal load', 'lat-cyclictest-normal-100-vrq.dat' using 1:2 with steps title 'vrq, normal-100 load', 'lat-cyclictest-normal-100-cfs.dat' using 1:2 with steps title 'cfs, normal-100 load', 'lat-cyclictest-normal-200-vrq.dat' using 1:2 with steps title 'vrq, normal-200 load', 'lat-cyclictest-normal-200-cfs.dat' using 1:2 with steps title 'cfs, normal-200 load'
set title 'frameprobe wakeup lateness (60 Hz)'
set logscale x
set xlabel 'us (log)'
set ylabel '% of wakeups <= x'
set yrange [0:100]
set grid
set key bottom right
plot 'lat-frameprobe-batch-vrq.dat' using 1:2 with steps title 'vrq, batch load', 'lat-frameprobe-batch-cfs.dat' using 1:2 with steps title 'cfs, batch load', 'lat-frameprobe-hogs-vrq.dat' using 1:2 with steps title 'vrq, hogs load', 'lat-frameprobe-hogs-cfs.dat' using 1:2 with steps title 'cfs, hogs load', 'lat-frameprobe-idle-vrq.dat' using 1:2 with steps title 'vrq, idle load', 'lat-frameprobe-idle-cfs.dat' using 1:2 with steps title 'cfs, idle load', 'lat-frameprobe-nice19-vrq.dat' using 1:2 with steps title 'vrq, nice19 load', 'lat-frameprobe-nice19-cfs.dat' using 1:2 with steps title 'cfs, nice19 load', 'lat-frameprobe-none-vrq.dat' using 1:2 with steps title 'vrq, none load', 'lat-frameprobe-none-cfs.dat' using 1:2 with steps title 'cfs, none load', 'lat-frameprobe-normal-vrq.dat' using 1:2 with steps title 'vrq, normal load', 'lat-frameprobe-normal-cfs.dat' using 1:2 with steps title 'cfs, normal load', 'lat-frameprobe-normal-100-vrq.dat' using 1:2 with steps title 'vrq, normal-100 load', 'lat-frameprobe-normal-100-cfs.dat' using 1:2 with steps title 'cfs, normal-100 load', 'lat-frameprobe-normal-200-vrq.dat' using 1:2 with steps title 'vrq, normal-200 load', 'lat-frameprobe-normal-200-cfs.dat' using 1:2 with steps title 'cfs, normal-200 load'
unset multiplot
