"""A stand-in for pyspark.sql: nothing but the functions module."""
