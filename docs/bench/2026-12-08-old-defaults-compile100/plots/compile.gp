set terminal pngcairo size 1000,600 font 'sans,10' noenhanced
set output 'compile.png'
set title 'compile: make -jN at N = % of CPUs, by scheduling policy'
set ylabel 'wall time, s'
set yrange [0:*]
set grid ytics
set offsets 0, 0, graph 0.1, 0
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -30
set key top left
plot 'compile.dat' using 2:3:4:xtic(1) title 'vrq', '' using 5:6:7 title 'vrq-alt'
