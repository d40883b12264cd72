"""pt: the Intel PT host tools (C, built by the Makefile, docs/pt.md); a
package only for their Python tests, in tests/."""
