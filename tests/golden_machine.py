"""Golden records are torch's output on the machine that recorded them, and torch's matrix
products (MKL) sum in another order on another CPU vendor or vector width. Records that come out
otherwise on another kind of machine are kept beside the base file, in `<name>.<machine>.json`,
and read over the base records there; the base file holds every record as the base machine
gave it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from gradcli.engine.cpu_capability import CAPABILITY, VENDOR

BASE_MACHINE = "AuthenticAMD-avx512"  # an AMD EPYC (Zen 4), where the base records were made
MACHINE = f"{VENDOR or 'unknown'}-{CAPABILITY}"


def machine_path(path: Path) -> Path:
    """The file of this machine kind's own records beside `path`."""
    return path.with_name(f"{path.stem}.{MACHINE}{path.suffix}")


def base_path(path: Path) -> Path:
    """The base file a machine kind's file belongs to (a base file is its own)."""
    return path.with_name(f"{path.name.split('.', 1)[0]}{path.suffix}")


def is_machine_file(path: Path) -> bool:
    """Whether `path` holds one machine kind's records (not a base file)."""
    return "." in path.stem


def read_records(path: Path) -> dict:
    """The base records with this machine kind's own read over them."""
    records = json.loads(path.read_text(encoding="utf-8"))
    own = machine_path(path)
    if MACHINE != BASE_MACHINE and own.exists():
        records.update(json.loads(own.read_text(encoding="utf-8")))
    return records


def sources_path(path: Path) -> Path:
    """The digests of the sources the records in `path` were made from."""
    return path.with_name(f"{path.stem}.sources{path.suffix}")


def write_records(path: Path, records: dict, indent: int = 1,
                  sources: dict[str, str] | None = None) -> None:
    """Store freshly recorded `records`: all of them in the base file on the base machine;
    elsewhere, new names (and, given their `sources`, names whose source changed since the last
    recording) go into the base file and those differing from it into this machine kind's
    file."""
    own = machine_path(path)
    digests = {name: _digest(text) for name, text in (sources or {}).items()}
    if MACHINE != BASE_MACHINE and path.exists():
        base = json.loads(path.read_text(encoding="utf-8"))
        known = sources_path(path)
        recorded = json.loads(known.read_text(encoding="utf-8")) if known.exists() else {}
        changed = {name for name in digests if recorded.get(name, digests[name]) != digests[name]}
        base = {name: record if name in changed else base.get(name, record)
                for name, record in records.items()}
        differing = {name: record for name, record in records.items() if base[name] != record}
        records = base
        if differing:
            _dump(own, differing, indent)
        elif own.exists():
            own.unlink()
    _dump(path, records, indent)
    if digests:
        _dump(sources_path(path), digests, indent)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _dump(path: Path, records: dict, indent: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=indent, ensure_ascii=False) + "\n",
                    encoding="utf-8")
