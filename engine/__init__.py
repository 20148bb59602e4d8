"""Pure rule engines, one package per game; see ``engine.core`` for the shared protocol."""
