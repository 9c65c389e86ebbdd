set terminal pngcairo size 1200,124 font 'sans,10' noenhanced
set output 'ratios.png'
set linetype 1 lc rgb '#cc2222'
set linetype 2 lc rgb '#777777'
set multiplot
set lmargin at screen 0.325417
set logscale x
set xlabel 'ratio (log scale)'
set grid xtics
set ytics font ',8'
set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2
set origin 0,0
set size 1,1
set title 'Throughput suite: vrq/vrq-alt ratio of medians, 95 % interval (red: excludes 1)'
set xrange [0.796105:1.28816]
set xtics ('0.8' 0.8, '0.9' 0.9, '0.95' 0.95, '1' 1, '1.05' 1.05, '1.1' 1.1, '1.25' 1.25)
set yrange [-1:1]
plot 'ratios-throughput.dat' using 2:1:3:4:5:ytic(6) with xerrorbars pt 7 ps 0.6 lc variable notitle
unset multiplot
