# Sample student: checks rows and columns but no diagonal at all: every permutation of
# the columns is returned (n! boards, of which only the solutions are right).
from itertools import permutations


def model(n):
    return [list(q) for q in permutations(range(n))]
