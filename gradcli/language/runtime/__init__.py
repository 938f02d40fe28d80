"""The runtime: values, frames, operators, calls, signatures, attributes and exceptions."""
