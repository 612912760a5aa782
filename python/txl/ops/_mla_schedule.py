"""The split-KV scheduler of MLA decoding (no torch: tested on the CPU).

Cuts a batch's pages into one run per part, balancing the runs' costs: a
page costs 1, and every piece of a batch entry (its query tile loaded, its
epilogue, its merge) costs PIECE_COST pages more, so many short entries
and a few long ones weigh the same.
"""

PAGE = 64        # tokens per KV-cache page (FlashMLA's block size)
PIECE_COST = 5   # what one piece costs, in pages


def schedule(pages, num_parts):
    """Per part [begin entry, begin page, end entry, end page (exclusive),
    the first piece's index, 0, 0, 0], and the running count of pieces per
    entry ([batch + 1]), for entries of `pages` pages each."""
    batch = len(pages)
    after = [0] * (batch + 1)  # the cost of entries i.. started afresh
    for i in range(batch - 1, -1, -1):
        after[i] = after[i + 1] + PIECE_COST + pages[i]
    meta, pieces = [], [0] * batch
    bi, page = 0, 0
    for part in range(num_parts):
        if bi >= batch:
            meta.append([batch, 0, batch - 1, 0, 0, 0, 0, 0])
            continue
        row = [bi, page, bi, page, pieces[bi], 0, 0, 0]
        # An even share of what is left (a part may end a few pages under
        # its share; the next ones absorb it); the last part takes all.
        left = after[bi] - page
        share = max(PIECE_COST + 1, -(-left // (num_parts - part)))
        budget = share if part < num_parts - 1 else float("inf")
        while bi < batch:
            cost = PIECE_COST + pages[bi] - page
            pieces[bi] += 1
            if cost <= budget:  # the rest of this entry
                budget -= cost
                row[2], row[3] = bi, pages[bi]
                bi, page = bi + 1, 0
                if budget <= PIECE_COST:
                    break
            else:  # part of it; the next part goes on from there
                page += budget - PIECE_COST
                row[2], row[3] = bi, page
                break
        meta.append(row)
    splits = [0]
    for n in pieces:
        splits.append(splits[-1] + n)
    return meta, splits
