#!/bin/sh
# Regenerates the committed PNG app icons from the SVG (needs rsvg-convert from librsvg2-bin).
# Run it by hand after editing org.partwise.Partwise.svg; the build itself never renders.
set -eu
cd "$(dirname "$0")"
for size in 16 24 32 48 64 128 256; do
    mkdir -p "hicolor/${size}x${size}"
    rsvg-convert -w "$size" -h "$size" org.partwise.Partwise.svg \
        -o "hicolor/${size}x${size}/org.partwise.Partwise.png"
done
