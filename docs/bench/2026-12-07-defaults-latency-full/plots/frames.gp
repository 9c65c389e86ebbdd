set terminal pngcairo size 1200,600 font 'sans,10' noenhanced
set output 'frames.png'
set multiplot layout 1,2
set title 'mpv frame drops (720p30 clip) by background load'
set ylabel 'frames'
set yrange [0:*]
set grid ytics
set offsets 0, 0, graph 0.1, 0
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -30
set key top left
plot 'frames-mpv.dat' using 2:3:4:xtic(1) title 'vrq', '' using 5:6:7 title 'cfs'
set title 'frameprobe missed frames (60 Hz) by background load'
set ylabel 'frames'
set yrange [0:*]
set grid ytics
set offsets 0, 0, graph 0.1, 0
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -30
set key top left
plot 'frames-frameprobe.dat' using 2:3:4:xtic(1) title 'vrq', '' using 5:6:7 title 'cfs'
unset multiplot
