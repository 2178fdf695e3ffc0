"""A stand-in for pyspark where it cannot be installed: records what cuckoo_spark calls."""
