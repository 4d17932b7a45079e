# Benchmark: strings and dicts. Generates argv[1] lines (default 200000) of
# pseudo-random words made of syllables, joins them into one text, splits
# it again, counts words in a dict of str -> int and prints the number of
# distinct words, the total and the ten most frequent words.
SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "xu",
             "an", "el", "or", "ix", "um", "da", "bre", "sto", "qua", "ght"]


class Rng(object):
    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def make_text(rng, nlines):
    lines = []
    for i in range(nlines):
        words = []
        for j in range(4 + rng.below(12)):
            k = 1 + rng.below(3)
            w = ""
            for m in range(k):
                w += SYLLABLES[rng.below(len(SYLLABLES))]
            words.append(w)
        lines.append(" ".join(words))
    return "\n".join(lines)


def count(text):
    counts = {}
    for line in text.split("\n"):
        for w in line.split(" "):
            if w:
                counts[w] = counts.get(w, 0) + 1
    return counts


def top(counts, k):
    best_w = []
    best_c = []
    for w, c in counts.items():
        i = len(best_w)
        best_w.append(w)
        best_c.append(c)
        while i > 0 and (c > best_c[i - 1] or (c == best_c[i - 1] and w < best_w[i - 1])):
            best_w[i] = best_w[i - 1]
            best_c[i] = best_c[i - 1]
            i -= 1
        best_w[i] = w
        best_c[i] = c
        if len(best_w) > k:
            best_w.pop()
            best_c.pop()
    return best_w, best_c


def entry_point(argv):
    n = 200000
    if len(argv) > 1:
        n = int(argv[1])
    text = make_text(Rng(12345), n)
    counts = count(text)
    total = 0
    for w, c in counts.items():
        total += c
    print "text bytes: %d, distinct: %d, total: %d" % (len(text), len(counts), total)
    ws, cs = top(counts, 10)
    for i in range(len(ws)):
        print "%s %d" % (ws[i], cs[i])
    return 0


def target(*args):
    return entry_point, None
