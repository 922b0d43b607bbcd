#!/bin/bash
KU=/var/cache/fragview/kernel-0570e6b4e8a28baf/bzImage
KP11=/var/cache/fragview/kernel-baa2a62d6096551f/bzImage
KP12=/var/cache/fragview/kernel-c9438967cc2bdff4/bzImage
./probe.sh u-h2 $KU fv.probe.hist=2
./probe.sh p11-h2 $KP11 fv.probe.hist=2
./probe.sh u-h1 $KU fv.probe.hist=1
./probe.sh p11-h1 $KP11 fv.probe.hist=1
