"""Published board figures for an operation (references/*.toml) and the
error of our estimates against them (`rtosmeter validate`,
docs/estimates.md "A published-reference error table")."""
