"""Cuckoo filters on PySpark: the SQL functions of cuckoo-spark as Column functions.

The functions run in the JVM, where ``cuckoo-spark`` registers them through
``spark.sql.extensions``. ``build``, ``might_contain``, ``key`` and ``filter_file``
only name them, so they work on a classic session and over Spark Connect alike.
``register``, ``write``, ``might_contain_file`` and ``remove`` call the library in
the driver's JVM through py4j, which only a classic (non-Connect) session reaches;
over Spark Connect they raise a ``RuntimeError`` that says what to do instead.

    from pyspark.sql import SparkSession, functions as F
    import cuckoo_spark as cs

    spark = cs.configure(SparkSession.builder).getOrCreate()
    seen = spark.table("visits").select(cs.build("url", "classic?targetFpp=0.001")).scalar()
    fresh = spark.table("crawl").where(~cs.might_contain(seen, F.col("url")))

    # classic session only
    cs.write(spark.table("visits"), "url", "classic?targetFpp=0.001", "/filters/visits.cuckoo")
    fresh = spark.table("crawl").where(~cs.might_contain_file(spark, "/filters/visits.cuckoo", "url"))
"""

from pyspark.sql import functions as F

__all__ = [
    "EXTENSIONS",
    "configure",
    "register",
    "build",
    "might_contain",
    "key",
    "filter_file",
    "write",
    "might_contain_file",
    "remove",
]

#: The value of ``spark.sql.extensions`` that registers the functions in every session.
EXTENSIONS = "dev.cuckoo.spark.CuckooSparkExtensions"

_EXTENSIONS_KEY = "spark.sql.extensions"


def configure(builder):
    """Adds the extension to a ``SparkSession.builder``'s ``spark.sql.extensions`` and returns the builder.

    Extensions already set on the builder (Delta's, Iceberg's) are kept, and ours is
    added after them, once: configuring a builder twice does not name it twice. Only
    what was set on this builder is seen (PySpark keeps it in the builder's
    ``_options``; a builder without them gets ours alone). A value given elsewhere,
    in ``spark-defaults.conf`` or by ``--conf``, is not seen and the builder's takes
    its place, so name those extensions on the builder too.

    ``spark.sql.extensions`` is read when a session starts: it does nothing to a
    session already running, which ``getOrCreate`` returns if there is one. There,
    call ``register(spark)``. Over Spark Connect, set it on the server instead.

    The cuckoo-spark jar must be on the driver's and executors' class path
    (``spark.jars.packages=dev.cuckoo:cuckoo-spark:<version>``, or ``--jars``).
    """
    held = getattr(builder, "_options", None)
    current = held.get(_EXTENSIONS_KEY) if isinstance(held, dict) else None
    names = [n.strip() for n in str(current or "").split(",") if n.strip()]
    if EXTENSIONS in names:
        return builder
    return builder.config(_EXTENSIONS_KEY, ",".join(names + [EXTENSIONS]))


def register(spark):
    """Registers the SQL functions in a session already running, where ``configure`` is too late.

    Needs a classic session. Over Spark Connect the functions run on the server: start
    it with ``spark.sql.extensions=dev.cuckoo.spark.CuckooSparkExtensions``.
    """
    jvm, jsession = _classic(spark, "register",
                             f"start the Spark Connect server with {_EXTENSIONS_KEY}={EXTENSIONS}")
    jvm.dev.cuckoo.spark.CuckooSpark.register(jsession)


def build(key, config):
    """``cuckoo_build(key, config)``: an aggregate Column, the filter file's bytes.

    ``key`` is a string, binary, bigint or int Column (or a column name); ``config`` a
    config string such as ``"classic?targetFpp=0.001"``; without a capacity the
    filter is sized for the distinct keys. Null when there are no non-null keys.
    """
    return F.call_function("cuckoo_build", _column(key), F.lit(config))


def might_contain(filter_bytes, key):
    """``cuckoo_might_contain(filter, key)``: true where ``key`` might be in the filter.

    ``filter_bytes`` must be one value for the whole query: a scalar subquery
    (``df.select(build(...)).scalar()``, or ``filter_file``), or the filter's bytes in
    Python (``bytes`` or ``bytearray``, as ``df.first()[0]`` gives them), which become
    a binary literal. A Column of a joined DataFrame is refused when the query is
    analysed. A literal carries the bytes back from Python into the query's plan;
    for a large filter keep the scalar subquery, or use ``might_contain_file``.
    """
    if isinstance(filter_bytes, (bytes, bytearray)):
        filter_bytes = F.lit(bytearray(filter_bytes))
    return F.call_function("cuckoo_might_contain", filter_bytes, _column(key))


def key(value):
    """``cuckoo_key(value)``: a key's bytes by the library's key rule."""
    return F.call_function("cuckoo_key", _column(value))


def filter_file(spark, path):
    """The bytes of a filter file (one ``write`` wrote) as a scalar subquery, for ``might_contain``."""
    return spark.read.format("binaryFile").load(path).select("content").scalar()


def write(df, column, config, path, replace=False):
    """Builds a filter of ``df[column]`` in shards across the cluster and writes it to ``path``.

    ``path`` is on a Hadoop FileSystem (``file://``, ``hdfs://``, ``s3a://``, ...);
    without ``replace`` a path that exists is refused before any job. Returns
    ``(keys, null_keys, shards, bytes)``. Needs a classic session; over Spark Connect,
    build with ``build`` or write from Java.
    """
    jvm, _ = _classic(df.sparkSession, "write",
                      "build the filter with cuckoo_spark.build, or write it from Java")
    written = jvm.dev.cuckoo.spark.CuckooSpark.write(df._jdf, column, config, path, bool(replace))
    return written.keys(), written.nullKeys(), written.shards(), written.bytes()


def might_contain_file(spark, path, key):
    """True where ``key`` might be in the filter file at ``path``, for filters too big to pass as bytes.

    Each executor maps the file once and keeps it mapped; the filter's table does not
    pass through the driver or the plan. The file must be of a variant that maps
    (``classic``, ``semi-sorted``), and must not change while the Column is in use: a
    query over a file changed since the Column was made (by ``remove``, say) fails,
    naming the path. A null key gives false. Needs a classic session; over Spark
    Connect use ``might_contain(filter_file(spark, path), key)``.
    """
    jvm, _ = _classic(spark, "might_contain_file",
                      "use might_contain(filter_file(spark, path), key), which reads the file as bytes")
    return _python_column(jvm.dev.cuckoo.spark.CuckooSpark.mightContain(path, _column(key)._jc))


def remove(df, column, path):
    """Removes the distinct non-null keys of ``df[column]`` from the filter file at ``path``.

    Returns how many keys were removed (a key with no fingerprint in the filter is
    not counted). ``path`` is a file on the driver's local disk, opened writable
    there; the executors find and encode the keys, and the driver removes them one
    partition at a time and closes the file, which makes the removals durable.

    Only remove keys that were added. Removing a key that is not in the filter may
    remove another key's fingerprint, which is then reported absent (a false
    negative). Running the same remove twice is such a removal: its second run looks
    for keys no longer there, may remove other keys' fingerprints instead, and counts
    those. Needs a classic session; over Spark Connect, remove from Java.
    """
    jvm, _ = _classic(df.sparkSession, "remove", "remove the keys from Java")
    writable = jvm.dev.cuckoo.CuckooFilters.openWritable(jvm.java.io.File(path).toPath())
    try:
        return jvm.dev.cuckoo.spark.CuckooSpark.remove(writable, df._jdf, column)
    finally:
        writable.close()


def _column(c):
    return F.col(c) if isinstance(c, str) else c


def _classic(spark, call, instead):
    """The JVM and the Java session of a classic session; for any other, an error naming the call."""
    jsession = getattr(spark, "_jsparkSession", None)
    if jsession is None:
        kind = f"{type(spark).__module__}.{type(spark).__qualname__}"
        raise RuntimeError(
            f"cuckoo_spark.{call} needs a classic SparkSession, whose driver JVM py4j reaches; "
            f"{kind} has no JVM behind it (a Spark Connect client's session has none). "
            f"Over Spark Connect, {instead}.")
    return spark.sparkContext._jvm, jsession


def _python_column(jcol):
    try:
        from pyspark.sql.classic.column import Column  # PySpark 4
    except ImportError:
        from pyspark.sql.column import Column  # PySpark 3.5
    return Column(jcol)
