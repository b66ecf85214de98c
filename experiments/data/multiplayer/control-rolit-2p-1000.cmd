target/release/gpn match rolit-2p --engine1 sb-gpn --engine2 sb-uct --games 300 --iterations 1000 --openings 4 --quiet --json control-rolit-2p-1000.json
