"""What the two CP-SAT engines share: solver settings and the solution-callback runner.

``cpsat`` (the integer model) and ``cpsat-board`` (the 0/1 board) both import these;
neither imports the other, as no engine does. The leading underscore keeps this
package off the engine list (``cp_queens.engines.names``).
"""
