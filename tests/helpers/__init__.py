"""What tests share besides fixtures: players, worlds and ways to play, one module per test
package that uses them (the fixtures stay in each package's conftest.py)."""
