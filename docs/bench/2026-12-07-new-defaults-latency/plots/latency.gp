set terminal pngcairo size 700,600 font 'sans,10' noenhanced
set output 'latency.png'
set multiplot layout 1,1
set title 'cyclictest wakeup latency (SCHED_OTHER)'
set logscale x
set xlabel 'us (log)'
set ylabel '% of wakeups <= x'
set yrange [0:100]
set grid
set key bottom right
plot 'lat-cyclictest-hogs-vrq.dat' using 1:2 with steps title 'vrq, hogs load', 'lat-cyclictest-hogs-cfs.dat' using 1:2 with steps title 'cfs, hogs load', 'lat-cyclictest-normal-vrq.dat' using 1:2 with steps title 'vrq, normal load', 'lat-cyclictest-normal-cfs.dat' using 1:2 with steps title 'cfs, normal load', 'lat-cyclictest-normal-100-vrq.dat' using 1:2 with steps title 'vrq, normal-100 load', 'lat-cyclictest-normal-100-cfs.dat' using 1:2 with steps title 'cfs, normal-100 load'
unset multiplot
