# Sample student (hostile, or just careless): keeps every board it ever looked at.


def model(n):
    seen = []
    while True:
        seen.append(bytearray(50 * 1024 * 1024))  # a "cache" that only grows
