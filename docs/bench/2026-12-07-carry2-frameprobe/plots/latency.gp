set terminal pngcairo size 700,600 font 'sans,10' noenhanced
set output 'latency.png'
set multiplot layout 1,1
set title 'frameprobe wakeup lateness (60 Hz)'
set logscale x
set xlabel 'us (log)'
set ylabel '% of wakeups <= x'
set yrange [0:100]
set grid
set key bottom right
plot 'lat-frameprobe-batch-vrq.dat' using 1:2 with steps title 'vrq, batch load', 'lat-frameprobe-batch-cfs.dat' using 1:2 with steps title 'cfs, batch load', 'lat-frameprobe-batch-vrq-alt.dat' using 1:2 with steps title 'vrq-alt, batch load', 'lat-frameprobe-hogs-vrq.dat' using 1:2 with steps title 'vrq, hogs load', 'lat-frameprobe-hogs-cfs.dat' using 1:2 with steps title 'cfs, hogs load', 'lat-frameprobe-hogs-vrq-alt.dat' using 1:2 with steps title 'vrq-alt, hogs load', 'lat-frameprobe-nice19-vrq.dat' using 1:2 with steps title 'vrq, nice19 load', 'lat-frameprobe-nice19-cfs.dat' using 1:2 with steps title 'cfs, nice19 load', 'lat-frameprobe-nice19-vrq-alt.dat' using 1:2 with steps title 'vrq-alt, nice19 load', 'lat-frameprobe-normal-vrq.dat' using 1:2 with steps title 'vrq, normal load', 'lat-frameprobe-normal-cfs.dat' using 1:2 with steps title 'cfs, normal load', 'lat-frameprobe-normal-vrq-alt.dat' using 1:2 with steps title 'vrq-alt, normal load', 'lat-frameprobe-normal-200-vrq.dat' using 1:2 with steps title 'vrq, normal-200 load', 'lat-frameprobe-normal-200-cfs.dat' using 1:2 with steps title 'cfs, normal-200 load', 'lat-frameprobe-normal-200-vrq-alt.dat' using 1:2 with steps title 'vrq-alt, normal-200 load'
unset multiplot
