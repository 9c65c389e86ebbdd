set terminal pngcairo size 1200,800 font 'sans,10' noenhanced
set output 'hackbench.png'
set multiplot layout 2,2
set title 'hackbench process-pipe'
set xlabel 'groups'
set ylabel 's'
set grid
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
unset logscale x
set xtics 1
set key top left
plot 'hackbench-process-pipe-vrq.dat' using 1:2:3:4 with yerrorlines title 'vrq', 'hackbench-process-pipe-cfs.dat' using 1:2:3:4 with yerrorlines title 'cfs'
set title 'hackbench process-socket'
set xlabel 'groups'
set ylabel 's'
set grid
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
unset logscale x
set xtics 1
set key top left
plot 'hackbench-process-socket-vrq.dat' using 1:2:3:4 with yerrorlines title 'vrq', 'hackbench-process-socket-cfs.dat' using 1:2:3:4 with yerrorlines title 'cfs'
set title 'hackbench thread-pipe'
set xlabel 'groups'
set ylabel 's'
set grid
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
unset logscale x
set xtics 1
set key top left
plot 'hackbench-thread-pipe-vrq.dat' using 1:2:3:4 with yerrorlines title 'vrq', 'hackbench-thread-pipe-cfs.dat' using 1:2:3:4 with yerrorlines title 'cfs'
set title 'hackbench thread-socket'
set xlabel 'groups'
set ylabel 's'
set grid
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
unset logscale x
set xtics 1
set key top left
plot 'hackbench-thread-socket-vrq.dat' using 1:2:3:4 with yerrorlines title 'vrq', 'hackbench-thread-socket-cfs.dat' using 1:2:3:4 with yerrorlines title 'cfs'
unset multiplot
