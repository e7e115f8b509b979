# Omaha pots: uncalled-bet return, main and side pots, rake (art. 16), winners and the split with the odd
# chip (art. 10(2)-(5)).
#
# Pure functions over player indexes and integer amounts (the table's smallest
# unit); chips are conserved exactly:
#   sum(contributions) == sum(returned) + sum(pot amounts)
#   pot amount == pot rake + sum(pot shares)


class Pot:
    """One pot: amount (before rake), eligible and winning players, rake and shares."""

    def __init__(self, amount, eligible):
        self.amount = amount
        self.eligible = eligible  # player indexes, ascending
        self.winners = ()  # player indexes, in odd-chip order (first gets the remainder)
        self.rake = 0
        self.shares = ()  # (player index, amount) per winner, same order as winners

    def __repr__(self):
        return "Pot(%d, eligible=%r, winners=%r, rake=%d)" % (self.amount, self.eligible, self.winners, self.rake)


def uncalled_bet(totals):
    """-> (index, amount) of the part of the top contribution nobody matched, or None.

    A player can win from each opponent at most what he put in himself, so the
    top contributor's excess over the second-highest contribution goes back to
    him (folded or not) and is never a pot nor raked.
    """
    top = -1
    top_amount = 0
    second = 0
    for i in range(len(totals)):
        t = totals[i]
        if t > top_amount:
            second = top_amount
            top = i
            top_amount = t
        elif t > second:
            second = t
    if top < 0 or top_amount == second:
        return None
    return top, top_amount - second


def build_pots(totals, live):
    """Contributions per player + who is still in -> (returned, [Pot, ...]).

    Side pots: the distinct contributions of the players still in are the pot
    levels; pot k holds, from every player, what he put in between level k-1
    and level k, and only players still in who reached level k are eligible
    (an all-in player wins only the pots he fully matched). Folded players'
    chips stay in the pots (art. 13(3)); any folded chips above the top level
    belong to the last pot. returned is (index, amount) or None.
    """
    totals = list(totals)
    returned = uncalled_bet(totals)
    if returned is not None:
        totals[returned[0]] -= returned[1]
    levels = []
    for i in range(len(totals)):
        if live[i] and totals[i] > 0 and totals[i] not in levels:
            levels.append(totals[i])
    levels.sort()
    pots = []
    prev = 0
    last = len(levels) - 1
    n = len(totals)
    for k in range(len(levels)):
        level = levels[k]
        top = k == last             # the last pot also takes the folded chips above its level
        amount = 0
        eligible = []
        for i in range(n):
            t = totals[i]
            if t > prev:            # (levels ascend: a player at this level is past the one before)
                if t >= level:
                    amount += (t if top else level) - prev
                    if live[i]:
                        eligible.append(i)
                else:
                    amount += t - prev
        pots.append(Pot(amount, tuple(eligible)))
        prev = level
    if not pots:
        leftover = 0
        for t in totals:
            leftover += t
        if leftover:
            # nobody still in has chips in (cannot happen in a dealt hand): keep them visible
            pots.append(Pot(leftover, ()))
    return returned, pots


def rake_pots(pots, tenths, cap):
    """Set each pot's rake: floor(amount * tenths / 1000) (tenths of a percent: 35 is 3.5%), the hand's
    total capped at cap.

    Art. 16 takes 3-5% of each pot, at most five big blinds: the cap is spent
    once per hand, main pot first, then each side pot in order. Rounding is
    down to the smallest unit (the house never rounds up). Returns the total.
    Worked out by the thousand and the rest, so no product leaves a small int
    (a pot of 11 stacks of 9,999,999 times 50 would: a long int on MicroPython).
    """
    left = cap
    total = 0
    for pot in pots:
        amount = pot.amount
        r = amount // 1000 * tenths + amount % 1000 * tenths // 1000
        if r > left:
            r = left
        pot.rake = r
        left -= r
        total += r
    return total


def split_pot(amount, winners):
    """Split amount among winners (already in odd-chip order) -> shares, same order.

    Art. 10(4): equal shares down to the smallest unit; art. 10(5): the whole
    indivisible remainder goes to the first winner in the order given.
    """
    n = len(winners)
    share = amount // n
    shares = [share] * n
    shares[0] += amount - share * n
    return shares


def award(pot, values, seats, from_button):
    """A pot's winners and their shares -> (winners, shares), player indexes in odd-chip order.

    Art. 10(2)-(3): the eligible players with the best value win the pot (its
    amount after its rake). Art. 10(5): the odd chip goes first from the
    croupier's left (ascending seat number, seats[i]); from_button: from the
    button's left (dealing order, ascending index).
    """
    top = -1
    winners = []
    for i in pot.eligible:
        v = values[i]
        if v > top:
            top = v
            winners = [i]
        elif v == top:
            winners.append(i)
    if not winners:
        return winners, []
    if len(winners) > 1:            # a split: the odd chip's order (one winner takes the whole pot)
        if from_button:
            winners.sort()
        else:
            winners = [i for _, i in sorted([(seats[i], i) for i in winners])]
    return winners, split_pot(pot.amount - pot.rake, winners)
