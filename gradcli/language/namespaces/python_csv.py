"""Python's `csv` module over the language's io.StringIO and iterables of strings: Python's own
readers and writers behind tables, a field that is no plain Python value written as its str."""

from __future__ import annotations

import csv

from gradcli.engine import errors
from gradcli.language.namespaces.python_io import StringIO, host_errors
from gradcli.language.runtime import classes
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.objects import TableIterator, TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate, type_name

ERROR = PyType("_csv.Error", (csv.Error,))
register_exception(ERROR)
_PLAIN = (str, int, float, bool, type(None))


def _lines(source):
    """What a reader reads: a StringIO's host file, or the strings of an iterable."""
    return source.host if isinstance(source, StringIO) else iterate(source)


def _target(file):
    """The host file a writer writes to: a StringIO's."""
    if isinstance(file, StringIO):
        return file.host
    if isinstance(file, TableObject) or classes.class_of(file) is not None:
        raise errors.TorchError("NotImplementedError",
                                "gradcli's csv writers write to an io.StringIO only")
    raise errors.type_error('argument 1 must have a "write" method')


class Reader(TableIterator):
    """csv.reader and csv.DictReader: the rows Python's reader gives, one per step."""

    __slots__ = ("host",)

    def __init__(self, host):
        self.host = host

    @property
    def language_type(self) -> PyType:
        return DICT_READER_TYPE if isinstance(self.host, csv.DictReader) else READER_TYPE

    def step(self):
        with host_errors(csv.Error):
            return next(self.host)

    def attribute(self, name: str):
        if name == "line_num":
            return self.host.line_num
        if isinstance(self.host, csv.DictReader) and name in ("fieldnames", "restkey", "restval"):
            with host_errors(csv.Error):
                return {"fieldnames": lambda: self.host.fieldnames,
                        "restkey": lambda: self.host.restkey,
                        "restval": lambda: self.host.restval}[name]()
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        if isinstance(self.host, csv.DictReader) and name == "fieldnames":
            self.host.fieldnames = value
            return
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<{self.language_type.name} object at 0x{id(self):x}>"


class Writer(TableObject):
    """csv.writer and csv.DictWriter: rows written through Python's writer."""

    __slots__ = ("host", "printer")

    def __init__(self, host, printer):
        self.host, self.printer = host, printer

    @property
    def language_type(self) -> PyType:
        return DICT_WRITER_TYPE if isinstance(self.host, csv.DictWriter) else WRITER_TYPE

    def _field(self, value):
        return value if type(value) in _PLAIN else self.printer.str(value)

    def _row(self, row):
        if isinstance(self.host, csv.DictWriter):
            if not isinstance(row, dict):
                raise errors.TorchError("AttributeError", f"'{type_name(row)}' object has no "
                                        "attribute 'keys'")
            return {key: self._field(value) for key, value in row.items()}
        try:
            return [self._field(value) for value in iterate(row)]
        except errors.TorchError:
            raise errors.TorchError("Error", f"iterable expected, not {type_name(row)}") from None

    def _writerow(self, row):
        with host_errors(csv.Error):
            return self.host.writerow(self._row(row))

    def _writerows(self, rows) -> None:
        for row in iterate(rows):
            self._writerow(row)

    def _writeheader(self):
        with host_errors(csv.Error):
            return self.host.writeheader()

    def attribute(self, name: str):
        methods = {"writerow": (self._writerow, "row, /"), "writerows": (self._writerows,
                                                                         "rows, /")}
        if isinstance(self.host, csv.DictWriter):
            if name == "fieldnames":
                return self.host.fieldnames
            methods["writeheader"] = (self._writeheader, "")
        if name not in methods:
            raise self.missing(name)
        function, signature = methods[name]
        return entry(name, function, signature, qualname=f"{self.class_name}.{name}")

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<{self.language_type.name} object at 0x{id(self):x}>"


def _reader(source, dialect, **fmtparams) -> Reader:
    with host_errors(csv.Error):
        return Reader(csv.reader(_lines(source), dialect, **fmtparams))


def _dict_reader(f, fieldnames, restkey, restval, dialect, *args, **kwds) -> Reader:
    with host_errors(csv.Error):
        return Reader(csv.DictReader(_lines(f), fieldnames, restkey, restval, dialect, *args,
                                     **kwds))


def _writer(ctx, file, dialect, **fmtparams) -> Writer:
    with host_errors(csv.Error):
        return Writer(csv.writer(_target(file), dialect, **fmtparams), ctx.printer)


def _dict_writer(ctx, f, fieldnames, restval, extrasaction, dialect, *args, **kwds) -> Writer:
    with host_errors(csv.Error):
        return Writer(csv.DictWriter(_target(f), list(iterate(fieldnames)), restval,
                                     extrasaction, dialect, *args, **kwds), ctx.printer)


READER_TYPE = PyType("_csv.reader", (Reader,))
WRITER_TYPE = PyType("_csv.writer", (Writer,))
DICT_READER_TYPE = PyType("csv.DictReader", (), entry(
    "DictReader", _dict_reader, "f, fieldnames=None, restkey=None, restval=None, "
    "dialect='excel', *args, **kwds", frames=0))
DICT_WRITER_TYPE = PyType("csv.DictWriter", (), entry(
    "DictWriter", _dict_writer, "f, fieldnames, restval='', extrasaction='raise', "
    "dialect='excel', *args, **kwds", context=True, frames=0))
CSV = Namespace("csv", table(
    entry("reader", _reader, "csvfile, /, dialect='excel', **fmtparams", frames=0),
    entry("writer", _writer, "csvfile, /, dialect='excel', **fmtparams", context=True,
          frames=0),
) | {"DictReader": DICT_READER_TYPE, "DictWriter": DICT_WRITER_TYPE, "Error": ERROR,
     **{name: vars(csv)[name] for name in ("QUOTE_ALL", "QUOTE_MINIMAL", "QUOTE_NONE",
                                              "QUOTE_NONNUMERIC")}})
