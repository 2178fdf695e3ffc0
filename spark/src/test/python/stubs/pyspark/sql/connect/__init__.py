"""A stand-in for pyspark.sql.connect: a Spark Connect client's session and DataFrame."""
