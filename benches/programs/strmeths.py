# Benchmark: the string methods and number conversions of the low-level helpers
# (ll_str.py, ll_num.py). argv[1] rounds (default 2000) of: str() and hex() of integers,
# int() of their text, a line split on ',' and ' ', rsplit with a limit, replace,
# splitlines and join; prints a checksum.
def work(n):
    nums = []
    for i in range(40):
        nums.append(str(n * 37 + i * 1001 - 5000))
    line = ",".join(nums)
    total = 0
    for part in line.split(","):
        total += int(part)
    total += len(line.replace(",", " ").split(" "))
    total += len(line.rsplit(",", 3)[0])
    total += len(hex(n * 7919)) + len(oct(n))
    text = "\n".join(nums[:10]) + "\r\n" + line
    for l in text.splitlines():
        total += len(l)
    return total


def entry_point(argv):
    rounds = 2000
    if len(argv) > 1:
        rounds = int(argv[1])
    total = 0
    for n in range(rounds):
        total = (total + work(n)) % 1000000007
    print total
    return 0


def target(*args):
    return entry_point, None
