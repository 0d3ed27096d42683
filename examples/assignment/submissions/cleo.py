# Sample student: keeps the board as a dict {row: column} and returns its KEYS,
# so every "solution" is [0, 1, ..., n-1].


def model(n):
    solutions = []
    board = {}

    def place(row):
        if row == n:
            solutions.append(list(board))  # list(dict) lists the keys
            return
        for col in range(n):
            if all(col != c and abs(col - c) != row - r for r, c in board.items()):
                board[row] = col
                place(row + 1)
                del board[row]

    place(0)
    return solutions
