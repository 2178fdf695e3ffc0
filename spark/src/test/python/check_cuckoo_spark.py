"""Checks python/cuckoo_spark against the stand-in pyspark: python3 check_cuckoo_spark.py MODULE_DIR GUIDE_BLOCK.

Compiles the module and the guide's example (warnings are errors), looks for imports it
does not use and names in __all__ it does not define, and checks each function: the SQL
function and arguments a wrapper calls; what configure leaves in a builder; the calls the
JVM-reaching ones make through py4j (to a recording stand-in), and that remove closes the
file it opened whatever happens; and that over a Spark Connect session these refuse with
an error naming the call and what to do instead. Prints "ok" when all hold; raises otherwise.
"""

import ast
import pathlib
import sys
import warnings
from types import ModuleType

warnings.simplefilter("error")
module_dir, guide_block = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
source = (module_dir / "cuckoo_spark" / "__init__.py").read_text(encoding="utf-8")
tree = ast.parse(source)
compile(source, "cuckoo_spark/__init__.py", "exec")
compile(guide_block.read_text(encoding="utf-8"), "docs/guide/spark.md (python block)", "exec")

imported = set()
for node in ast.walk(tree):
    if isinstance(node, ast.Import):
        imported.update((a.asname or a.name).split(".")[0] for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        imported.update(a.asname or a.name for a in node.names)
used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
unused = imported - used
assert not unused, f"imports not used: {sorted(unused)}"

sys.path.insert(0, str(module_dir))
import cuckoo_spark as cs  # noqa: E402  (after the path is set)
from pyspark.sql import column as column_35, functions as F  # noqa: E402
from pyspark.sql.classic import column as column_4  # noqa: E402
from pyspark.sql.connect.dataframe import DataFrame as ConnectDataFrame  # noqa: E402
from pyspark.sql.connect.session import SparkSession as ConnectSession  # noqa: E402
from pyspark.sql.dataframe import DataFrame  # noqa: E402
from pyspark.sql.session import SparkSession  # noqa: E402

missing = [n for n in cs.__all__ if not hasattr(cs, n)]
assert not missing, f"__all__ names what the module lacks: {missing}"
public = {n for n, v in vars(cs).items() if not n.startswith("_") and not isinstance(v, ModuleType)}
assert public == set(cs.__all__), f"public names not in __all__, or the reverse: {sorted(public ^ set(cs.__all__))}"
assert cs.EXTENSIONS == "dev.cuckoo.spark.CuckooSparkExtensions", cs.EXTENSIONS
assert cs.build("url", "classic?targetFpp=0.001") == (
    "call_function", "cuckoo_build", ("col", "url"), ("lit", "classic?targetFpp=0.001")), cs.build("url", "c")
assert cs.might_contain("BYTES", ("col", "url")) == ("call_function", "cuckoo_might_contain", "BYTES", ("col", "url"))
for given in (b"\x01\x02", bytearray(b"\x01\x02")):
    call = cs.might_contain(given, "url")
    assert call == ("call_function", "cuckoo_might_contain", ("lit", b"\x01\x02"), ("col", "url")), call
    assert type(call[2][1]) is bytearray, f"{type(given)} must become a literal of a bytearray: {call}"
assert cs.key("id") == ("call_function", "cuckoo_key", ("col", "id"))


# configure: ours after what the builder holds, once
ours = "dev.cuckoo.spark.CuckooSparkExtensions"
delta = "io.delta.sql.DeltaSparkSessionExtension"
for held, expected in (
        (None, ours),
        (delta, f"{delta},{ours}"),
        (f" {delta} , ", f"{delta},{ours}"),
        (f"{delta},{ours}", f"{delta},{ours}"),
        (f"{ours}, {delta}", f"{ours}, {delta}")):
    builder = SparkSession.Builder().config("spark.app.name", "a")
    if held is not None:
        builder.config("spark.sql.extensions", held)
    got = cs.configure(builder)
    assert got is builder, "configure must return the builder it was given"
    assert got._options == {"spark.app.name": "a", "spark.sql.extensions": expected}, (held, got._options)


class Unknown:
    """A builder that does not show what it holds."""

    def config(self, key, value):
        self.set = (key, value)
        return self


assert cs.configure(Unknown()).set == ("spark.sql.extensions", ours)


class Jvm:
    """A stand-in for py4j's view of the JVM: records each call by the dotted name it was reached by.

    A call returns what ``returns`` holds for its name (raising it if it is an exception),
    else another Jvm named by the call.
    """

    def __init__(self, log, returns, name):
        self._log, self._returns, self._name = log, returns, name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Jvm(self._log, self._returns, f"{self._name}.{attr}")

    def __call__(self, *args):
        call = f"{self._name}({', '.join(map(repr, args))})"
        self._log.append(call)
        result = self._returns.get(self._name)
        if isinstance(result, BaseException):
            raise result
        return Jvm(self._log, self._returns, call) if result is None else result

    def __repr__(self):
        return self._name


def classic(**returns):
    """A classic session and a DataFrame of it, and the log of the calls made to their JVM."""
    log = []
    jvm = Jvm(log, {f"jvm.{k.replace('__', '.')}": v for k, v in returns.items()}, "jvm")
    spark = SparkSession(jvm, Jvm(log, {}, "jsession"))
    return spark, DataFrame(spark, Jvm(log, {}, "jdf")), log


spark, df, log = classic()
assert cs.register(spark) is None
assert log == ["jvm.dev.cuckoo.spark.CuckooSpark.register(jsession)"], log

written = Jvm([], {"written.keys": 10, "written.nullKeys": 2, "written.shards": 4, "written.bytes": 4096}, "written")
spark, df, log = classic(dev__cuckoo__spark__CuckooSpark__write=written)
assert cs.write(df, "url", "classic?targetFpp=0.001", "/f") == (10, 2, 4, 4096)
assert cs.write(df, "url", "classic?targetFpp=0.001", "/f", replace=True) == (10, 2, 4, 4096)
assert log == ["jvm.dev.cuckoo.spark.CuckooSpark.write(jdf, 'url', 'classic?targetFpp=0.001', '/f', False)",
               "jvm.dev.cuckoo.spark.CuckooSpark.write(jdf, 'url', 'classic?targetFpp=0.001', '/f', True)"], log

spark, df, log = classic()
lookup = "jvm.dev.cuckoo.spark.CuckooSpark.mightContain('/f', ('jc', 'col', 'url'))"
for key in ("url", F.col("url")):
    found = cs.might_contain_file(spark, "/f", key)
    assert type(found) is column_4.Column and repr(found._jc) == lookup, (type(found), found._jc)
sys.modules["pyspark.sql.classic.column"] = None  # PySpark 3.5 has no pyspark.sql.classic
try:
    found = cs.might_contain_file(spark, "/f", "url")
finally:
    sys.modules["pyspark.sql.classic.column"] = column_4
assert type(found) is column_35.Column and repr(found._jc) == lookup, (type(found), found._jc)
assert log == [lookup] * 3, log

opened = [
    "jvm.java.io.File('/f')",
    "jvm.java.io.File('/f').toPath()",
    "jvm.dev.cuckoo.CuckooFilters.openWritable(jvm.java.io.File('/f').toPath())",
]
spark, df, log = classic(dev__cuckoo__spark__CuckooSpark__remove=7)
assert cs.remove(df, "url", "/f") == 7
assert log == opened + [f"jvm.dev.cuckoo.spark.CuckooSpark.remove({opened[-1]}, jdf, 'url')", f"{opened[-1]}.close()"], log

failure = RuntimeError("the Java remove failed")
spark, df, log = classic(dev__cuckoo__spark__CuckooSpark__remove=failure)
try:
    cs.remove(df, "url", "/f")
    raise AssertionError("remove hid the failure of the Java remove")
except RuntimeError as e:
    assert e is failure, e
assert log[-1] == f"{opened[-1]}.close()", f"the filter must be closed when remove fails: {log}"

spark, df, log = classic(dev__cuckoo__CuckooFilters__openWritable=RuntimeError("no such file"))
try:
    cs.remove(df, "url", "/f")
    raise AssertionError("remove hid the failure to open the file")
except RuntimeError as e:
    assert str(e) == "no such file", e
assert log == opened, f"nothing to close when the file did not open: {log}"

# over Spark Connect: each JVM-reaching call refuses, naming itself and what to do instead
connect = ConnectSession()
connect_df = ConnectDataFrame(connect)
refusals = {
    "register": (lambda: cs.register(connect), "with spark.sql.extensions=dev.cuckoo.spark.CuckooSparkExtensions"),
    "write": (lambda: cs.write(connect_df, "url", "classic", "/f"), "cuckoo_spark.build"),
    "might_contain_file": (lambda: cs.might_contain_file(connect, "/f", "url"),
                           "might_contain(filter_file(spark, path), key)"),
    "remove": (lambda: cs.remove(connect_df, "url", "/f"), "from Java"),
}
for name, (call, instead) in refusals.items():
    try:
        call()
        raise AssertionError(f"{name} over Spark Connect did not refuse")
    except RuntimeError as e:
        said = str(e)
    for words in (f"cuckoo_spark.{name} needs a classic SparkSession", "pyspark.sql.connect.session.SparkSession",
                  "Spark Connect", instead):
        assert words in said, f"{name}: {words!r} not in {said!r}"

print("ok")
