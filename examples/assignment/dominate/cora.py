# Sample student (lesson 11): one queen in the corner "covers a lot". It dominates the
# boards up to 3 x 3 only: from 4 x 4 on, squares are left that it does not attack.


def model(n):
    return [(0, 0)]
