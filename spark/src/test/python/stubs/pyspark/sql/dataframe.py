"""A stand-in for pyspark.sql.dataframe: a classic DataFrame, its session and its Java Dataset."""


class DataFrame:
    def __init__(self, session, jdf):
        self.sparkSession = session
        self._jdf = jdf
