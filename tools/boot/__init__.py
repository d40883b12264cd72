"""boot: the scripts that make and boot the images (shell, run by path);
a package only for their Python tests, in tests/."""
