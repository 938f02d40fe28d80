"""The compiler: statements, expressions, targets and scopes turned into closures."""
