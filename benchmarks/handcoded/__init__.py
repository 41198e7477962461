"""A hand-written program of Eminent Domain's Learning Game: `bench.py --yardstick`'s yardstick."""
