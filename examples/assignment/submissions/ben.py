# Sample student: breaks the mirror symmetry (q[0] < n/2) while listing ALL solutions,
# so every mirror image is missing.
from itertools import permutations


def model(n):
    for q in permutations(range(n)):
        if q[0] < n / 2 and all(abs(q[i] - q[j]) != i - j for i in range(n) for j in range(i)):
            yield q
