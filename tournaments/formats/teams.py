"""Team events: teams of N boards, a team match's result from its boards, a round robin of teams, its standings.

A team event pairs teams; each pairing of two teams (a *team match*) is N ordinary matches, board 1 against
board 1, board 2 against board 2, and so on, each recorded and rated as any match is. Pure Python, as the other
formats.

* **Boards and reserves.** ``Config.boards`` is N; ``Config.reserves`` how many more players a team may list. A
  team's *line-up* for a team match names the N members who play, board 1 first. With ``fixed_order`` (the WBIF
  team championship: 5 boards and a reserve, the board order fixed for the event) a line-up keeps the members in
  the order the team listed them at entry: a reserve may come in for a member, and the others keep their relative
  order; without it (the WBGF Club World Championship: 3 boards, a round won with 2 of 3 matches) a team sets its
  order for each team match.
* **A team match's result.** A team wins the team match by winning a majority of the boards: 2 of 3, 3 of 5
  (``Config.to_win``, by default ``boards // 2 + 1``). The team match is decided as soon as one team reaches it,
  whatever the boards still in play; with an even number of boards, boards shared equally once every board is
  played is a drawn team match.
* **Match points.** A team match won gives 2 match points, drawn 1, lost 0.
* **Standings**, best first, by:

  1. match points;
  2. board points: the boards won, over every team match (each board's match counts once it is won);
  3. the match points of the team matches among the teams still tied (head to head; when it leaves some tied,
     the next criteria decide among those);
  4. the points difference: the match points won minus lost, over every board played;
  5. the seed order (the order the teams are listed).

A round robin of teams is played on the same Berger tables as a round robin of players
(:func:`tournaments.formats.round_robin.berger`); a team left without opponent in a round rests.

* **Its schedule** (:func:`derive`): every team match of every round is its N boards, each an ordinary slot
  (``team:r{round}:m{team match}:b{board}``, bracket ``teams``), the first-listed team's player first. A round's
  boards are played once every board of the rounds before it is settled (a round of a team event is a meeting of
  the teams, and a team sets its line-up for the next one knowing the last): until then its slots wait. The
  event's winner is the first team of the table once every board is settled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .core import SETTLED, FormatError, Lengths, Reason, Result, Slot
from . import swiss
from .knockout import bracket_order, bracket_size
from .round_robin import berger
from .round_robin import groups as round_robin_groups

BRACKET = "teams"  # the bracket of a team event's boards

WIN, DRAW, LOSS = 2, 1, 0  # match points of a team match


@dataclass(frozen=True)
class Config:
    boards: int = 3
    reserves: int = 0
    fixed_order: bool = False
    to_win: int = 0  # boards to win the team match; 0: a majority

    def __post_init__(self):
        if self.boards < 1 or self.reserves < 0:
            raise FormatError(Reason.TEAM_BOARDS)
        if self.to_win and not self.boards // 2 < self.to_win <= self.boards:
            raise FormatError(Reason.TEAM_TO_WIN, boards=self.boards)

    @property
    def needed(self) -> int:
        return self.to_win or self.boards // 2 + 1


@dataclass(frozen=True)
class Team:
    """A team as entered: its id and its members (players' ids), the order of its board list."""

    id: int
    members: tuple[int, ...]


def check_teams(teams: Sequence[Team], config: Config) -> None:
    ids = [t.id for t in teams]
    players = [p for t in teams for p in t.members]
    if len(set(ids)) != len(ids):
        raise FormatError(Reason.ENTERED_TWICE)
    if len(set(players)) != len(players):
        raise FormatError(Reason.TEAM_MEMBER_TWICE)
    for team in teams:
        if not config.boards <= len(team.members) <= config.boards + config.reserves:
            raise FormatError(Reason.TEAM_SIZE, team=team.id, least=config.boards,
                              most=config.boards + config.reserves)


def check_lineup(team: Team, lineup: Sequence[int], config: Config) -> tuple[int, ...]:
    """``lineup`` (board 1 first) if the team may play it, else the refusal saying why not."""
    lineup = tuple(lineup)
    if len(lineup) != config.boards or len(set(lineup)) != len(lineup):
        raise FormatError(Reason.LINEUP_BOARDS, team=team.id, boards=config.boards)
    strangers = [p for p in lineup if p not in team.members]
    if strangers:
        raise FormatError(Reason.LINEUP_STRANGER, team=team.id, player=strangers[0])
    if config.fixed_order and list(lineup) != sorted(lineup, key=team.members.index):
        raise FormatError(Reason.LINEUP_ORDER, team=team.id)
    return lineup


@dataclass(frozen=True)
class TeamMatch:
    """Two teams' boards and what has been decided on them. ``boards[i]`` is board i + 1's result (None: not yet)."""

    a: int
    b: int
    lineups: tuple[tuple[int, ...], tuple[int, ...]]
    boards: tuple[Result | None, ...]
    needed: int

    @property
    def board_wins(self) -> tuple[int, int]:
        a_players, b_players = self.lineups
        won_a = sum(1 for r in self.boards if r is not None and r.winner in a_players)
        won_b = sum(1 for r in self.boards if r is not None and r.winner in b_players)
        return won_a, won_b

    @property
    def decided(self) -> bool:
        won_a, won_b = self.board_wins
        return max(won_a, won_b) >= self.needed or all(r is not None for r in self.boards)

    @property
    def winner(self) -> int | None:
        """The team that won (None while undecided, or for a drawn team match)."""
        won_a, won_b = self.board_wins
        if won_a >= self.needed or (self.decided and won_a > won_b):
            return self.a
        if won_b >= self.needed or (self.decided and won_b > won_a):
            return self.b
        return None

    def match_points(self, team: int) -> int:
        if not self.decided:
            return 0
        if self.winner is None:
            return DRAW
        return WIN if self.winner == team else LOSS

    def points(self, team: int) -> tuple[int, int]:
        """The match points this team's boards won and lost, over the boards played."""
        mine = self.lineups[0] if team == self.a else self.lineups[1]
        won = lost = 0
        for r in self.boards:
            if r is None:
                continue
            if r.winner in mine:
                won, lost = won + r.winner_points, lost + r.loser_points
            else:
                won, lost = won + r.loser_points, lost + r.winner_points
        return won, lost


def team_match(a: Team, b: Team, lineups: tuple[Sequence[int], Sequence[int]],
               results: Mapping[int, Result], config: Config) -> TeamMatch:
    """The team match of ``a`` against ``b`` with these line-ups; ``results``: board number (1…) -> result."""
    lineup_a, lineup_b = check_lineup(a, lineups[0], config), check_lineup(b, lineups[1], config)
    boards = []
    for board in range(1, config.boards + 1):
        result = results.get(board)
        if result is not None and result.players != {lineup_a[board - 1], lineup_b[board - 1]}:
            raise FormatError(Reason.FOREIGN_RESULT, result=result, a=lineup_a[board - 1], b=lineup_b[board - 1])
        boards.append(result)
    return TeamMatch(a.id, b.id, (lineup_a, lineup_b), tuple(boards), config.needed)


@dataclass(frozen=True)
class TeamStanding:
    team: int
    rank: int
    played: int  # team matches decided
    won: int
    drawn: int
    lost: int
    match_points: int
    board_points: int
    points_for: int
    points_against: int
    tiebreaks: dict[str, int] = field(default_factory=dict)


def standings(teams: Sequence[int], matches: Sequence[TeamMatch], byes: Sequence[int] = ()) -> list[TeamStanding]:
    """The table of the teams after these team matches, best first (the order of the module's docstring).
    ``byes``: the teams given a bye (a Swiss of teams), one entry a bye: each scores a won team match."""
    seed = {t: i for i, t in enumerate(teams)}
    if len(seed) != len(teams):
        raise FormatError(Reason.LISTED_TWICE)
    rows = {t: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "mp": 0, "bp": 0, "for": 0, "against": 0}
            for t in teams}
    for team in byes:
        rows[team]["won"] += 1
        rows[team]["mp"] += WIN
    for m in matches:
        for team, boards_won in ((m.a, m.board_wins[0]), (m.b, m.board_wins[1])):
            row = rows[team]
            row["bp"] += boards_won
            won, lost = m.points(team)
            row["for"] += won
            row["against"] += lost
            if m.decided:
                row["played"] += 1
                row["mp"] += m.match_points(team)
                row["won" if m.winner == team else "drawn" if m.winner is None else "lost"] += 1

    def head_to_head(group: frozenset[int], team: int) -> int:
        return sum(m.match_points(team) for m in matches if {m.a, m.b} <= group and team in (m.a, m.b))

    order: list[int] = []
    h2h: dict[int, int] = {}
    by_points = sorted(teams, key=lambda t: (-rows[t]["mp"], -rows[t]["bp"], seed[t]))
    while len(order) < len(by_points):
        first = by_points[len(order)]
        tied = frozenset(t for t in teams if (rows[t]["mp"], rows[t]["bp"]) == (rows[first]["mp"], rows[first]["bp"]))
        h2h.update({t: head_to_head(tied, t) for t in tied})
        order += sorted(tied, key=lambda t: (-h2h[t], -(rows[t]["for"] - rows[t]["against"]), seed[t]))
    return [TeamStanding(t, rank, rows[t]["played"], rows[t]["won"], rows[t]["drawn"], rows[t]["lost"],
                         rows[t]["mp"], rows[t]["bp"], rows[t]["for"], rows[t]["against"], {"head_to_head": h2h[t]})
            for rank, t in enumerate(order, 1)]


def round_robin(teams: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin of teams (Berger tables, as for players): (team, opponent or None to rest)."""
    if len(set(teams)) != len(teams):
        raise FormatError(Reason.LISTED_TWICE)
    n = len(teams)
    numbers = n + n % 2
    rounds = []
    for r in range(1, numbers):
        pairs = [tuple(sorted(t)) for t in berger(numbers, r)]
        pairs.sort(key=lambda t: t[1] > n)  # the rest (dummy number n + 1) last
        rounds.append([(teams[a - 1], teams[b - 1] if b <= n else None) for a, b in pairs])
    return rounds


def board_key(round_no: int, match_no: int, board: int, stage: str = "") -> str:
    """A board's slot: ``team:r2:m1:b3``; in a group ``team:g1:r2:m1:b3``, in the knockout after the groups
    ``team:ko:r4:m1:b3`` (``stage``)."""
    return f"team:{stage + ':' if stage else ''}r{round_no}:m{match_no}:b{board}"


KNOCKOUT = "ko"  # the stage of the knockout of the teams that qualify from the round robin


def group_stage(group: int, count: int) -> str:
    """The stage of group ``group`` of ``count``: none for a round robin of one group (its keys as ever)."""
    return f"g{group}" if count > 1 else ""


def default_lineup(team: Team, config: Config) -> tuple[int, ...]:
    """The line-up a team plays when it sets none: its first N members, in the order it listed them."""
    return tuple(team.members[: config.boards])


@dataclass(frozen=True)
class Meeting:
    """One team match of a round (``b`` None: ``a`` rests), its boards' slots and what they decide."""

    round: int
    index: int
    a: int
    b: int | None
    slots: tuple[Slot, ...] = ()
    match: TeamMatch | None = None
    through: int | None = None  # a knockout's: the team going on (a bye's team, or :func:`goes_through`)
    stage: str = ""  # its group's (``g1``…) or the knockout's after the groups (``ko``); "" for a one-stage event


@dataclass(frozen=True)
class Schedule:
    slots: tuple[Slot, ...]
    meetings: tuple[Meeting, ...]
    standings: tuple[TeamStanding, ...]
    winner: int | None  # the first team once every board is settled
    groups: tuple[tuple[TeamStanding, ...], ...] = ()  # a round robin in groups: each group's table, group 1 first


def _meetings(r: int, pairs: Sequence[tuple[int, int | None]], by_id: Mapping[int, Team],
              results: Mapping[str, Result], config: Config, lineups, length: int,
              known: bool, stage: str = "") -> tuple[list[Slot], list[Meeting]]:
    """One round's team matches: each its boards' slots (``known``: the round may be played) and its result."""
    round_slots: list[Slot] = []
    meetings: list[Meeting] = []
    for m, (a, b) in enumerate(pairs, 1):
        if b is None:
            meetings.append(Meeting(r, m, a, None, stage=stage))
            continue
        sides = tuple(check_lineup(by_id[t], lineups.get((r, t), default_lineup(by_id[t], config)), config)
                      for t in (a, b))
        boards, counted = [], {}
        for i in range(config.boards):
            key = board_key(r, m, i + 1, stage)
            players = (sides[0][i], sides[1][i])
            result = results.get(key)
            if result is not None and result.players != set(players):
                result = None
            if result is not None:
                counted[i + 1] = result
            boards.append(Slot(key, BRACKET, r, (m - 1) * config.boards + i + 1, players, length, False, result,
                               known=(known, known)))
        round_slots += boards
        meetings.append(Meeting(r, m, a, b, tuple(boards),
                                team_match(by_id[a], by_id[b], (sides[0], sides[1]), counted, config), stage=stage))
    return round_slots, meetings


def derive(teams: Sequence[Team], results: Mapping[str, Result], config: Config,
           lengths: Lengths = Lengths(), lineups: Mapping[tuple[int, int], Sequence[int]] | None = None,
           stage: str = "") -> Schedule:
    """Every round of a round robin of ``teams`` (in seed order), its boards and results, and the table.
    ``lineups``: (round, team) -> the players it put on its boards, board 1 first (none: :func:`default_lineup`).
    A result whose players are not the board's (a line-up changed since) is left out. ``stage``: a group's
    (:func:`group_stage`), in its boards' keys."""
    check_teams(teams, config)
    by_id = {t.id: t for t in teams}
    lineups = lineups or {}
    rounds = round_robin([t.id for t in teams])
    slots: list[Slot] = []
    meetings: list[Meeting] = []
    earlier_open = False
    for r, pairs in enumerate(rounds, 1):
        round_slots, round_meetings = _meetings(r, pairs, by_id, results, config, lineups,
                                                lengths.of(r, len(rounds)), not earlier_open, stage)
        slots += round_slots
        meetings += round_meetings
        earlier_open = earlier_open or any(s.status not in SETTLED for s in round_slots)
    table = standings([t.id for t in teams], [m.match for m in meetings if m.match is not None])
    done = all(s.status in SETTLED for s in slots)
    return Schedule(tuple(slots), tuple(meetings), tuple(table), table[0].team if done and table else None)


def swiss_pairing(round_no: int, teams: Sequence[int], meetings: Sequence[Meeting]) -> list[tuple[int, int | None]]:
    """The pairing of round ``round_no`` of a Swiss of teams after these (settled) earlier meetings.

    The teams are ranked by the table of teams (match points, board points, head to head, points difference,
    seed) and paired by the Swiss pairer of the individual formats (:func:`tournaments.formats.swiss.pair_ranked`)
    with the match points as its score groups: no rematch whenever one can be avoided, a bye (odd count) to the
    lowest-ranked team that has not had one."""
    met = {frozenset((m.a, m.b)) for m in meetings if m.b is not None}
    byes = [m.a for m in meetings if m.b is None]
    table = standings(teams, [m.match for m in meetings if m.match is not None], byes)
    ranked = [row.team for row in table]
    score = {row.team: row.match_points for row in table}
    return swiss.pair_ranked(round_no, ranked, score, met, byes)


def derive_swiss(teams: Sequence[Team], results: Mapping[str, Result], config: Config, rounds: int,
                 lengths: Lengths = Lengths(),
                 lineups: Mapping[tuple[int, int], Sequence[int]] | None = None,
                 paired: Sequence[Sequence[tuple[int, int | None]]] = ()) -> Schedule:
    """A Swiss of ``teams`` (in seed order) over ``rounds`` rounds. Round 1 pairs the seed order's top half
    against its bottom half (the pairer on a field all on 0); each later round is paired once every board of the
    rounds before it is settled, from the table then (:func:`swiss_pairing`): until then it has no team matches.
    ``paired``: the pairings of the rounds already paired (round 1 first), as recorded: a round paired stays as it
    was paired, whatever a correction of an earlier board does to the table since; only the rounds after them are
    paired from the table. A bye scores a won team match: 2 match points, no board points and no points for or
    against. The event's winner is the first team of the table once the last round's boards are all settled."""
    check_teams(teams, config)
    by_id = {t.id: t for t in teams}
    ids = [t.id for t in teams]
    lineups = lineups or {}
    slots: list[Slot] = []
    meetings: list[Meeting] = []
    played_out = True  # every board of the rounds so far is settled
    unsettled: set[int] = set()  # the rounds with a board still open
    for r in range(1, rounds + 1):
        if r <= len(paired):
            pairs = [(a, b) for a, b in paired[r - 1]]
        elif played_out:
            pairs = swiss_pairing(r, ids, meetings)
        else:
            break
        round_slots, round_meetings = _meetings(r, pairs, by_id, results, config, lineups,
                                                lengths.of(r, rounds), True)
        slots += round_slots
        meetings += round_meetings
        if not all(s.status in SETTLED for s in round_slots):
            unsettled.add(r)
            played_out = False
    # a bye counts in the table once its round is played out, as the team matches beside it
    byes = [m.a for m in meetings if m.b is None and m.round not in unsettled]
    table = standings(ids, [m.match for m in meetings if m.match is not None], byes)
    done = played_out and len({m.round for m in meetings}) == rounds
    return Schedule(tuple(slots), tuple(meetings), tuple(table), table[0].team if done and table else None)


def goes_through(match: TeamMatch, first_board: Result | None = None) -> int | None:
    """The team a knockout's team match sends on (None until it is decided). A team match won on the boards sends
    its winner; an even split of the boards, the team that won more match points over all the boards (the points
    difference the table of teams ranks by), and when those are equal too, the team that won board 1 (the board
    order is the teams' order of strength, so board 1 is the decider of the federations' board-order count-back).
    The federations' own team events play an odd number of boards, where no split is even (the WBGF Club World
    Championship 3, a round won with 2: https://chicagoopenbg.com/wbgf-club/; the team world championship played in
    Trier 5 a round, board points its table's second criterion: https://www.backgammon-trier.de/en/preisverteilung/);
    neither publishes a rule for an even split, so this one is the event's own."""
    if not match.decided:
        return None
    if match.winner is not None:
        return match.winner
    (won_a, lost_a) = match.points(match.a)
    if won_a != lost_a:
        return match.a if won_a > lost_a else match.b
    board1 = match.boards[0]
    return match.a if board1.winner in match.lineups[0] else match.b


def derive_knockout(teams: Sequence[Team], results: Mapping[str, Result], config: Config,
                    lengths: Lengths = Lengths(),
                    lineups: Mapping[tuple[int, int], Sequence[int]] | None = None,
                    after: int = 0, stage: str = "") -> Schedule:
    """A knockout of ``teams`` (in seed order: the draw's): the usual seeded bracket (seeds 1 and 2 meet only in
    the final, byes to the top seeds when the count is not a power of two), each team match its boards. A round
    is paired once every board of the round before is settled, each pairing the teams its two team matches sent on
    (:func:`goes_through`); the final's is the event's winner. ``after``: the rounds played before it (a knockout
    after the groups numbers its rounds on from theirs: a line-up is set for a round), ``stage`` its keys'."""
    check_teams(teams, config)
    by_id = {t.id: t for t in teams}
    ids = [t.id for t in teams]
    lineups = lineups or {}
    size = max(2, bracket_size(len(ids)))
    total = size.bit_length() - 1
    entries: list[int | None] = [ids[s - 1] if s <= len(ids) else None for s in bracket_order(size)]
    slots: list[Slot] = []
    meetings: list[Meeting] = []
    winner = None
    for r in range(1, total + 1):
        pairs = [(entries[i], entries[i + 1]) for i in range(0, len(entries), 2)]
        # a bye: the team is listed first, resting
        pairs = [(a, b) if a is not None else (b, a) for a, b in pairs]
        round_slots, round_meetings = _meetings(after + r, pairs, by_id, results, config, lineups,
                                                lengths.of(r, total), True, stage)
        round_meetings = [replace(m, through=m.a if m.b is None else goes_through(m.match)) for m in round_meetings]
        slots += round_slots
        meetings += round_meetings
        if not all(s.status in SETTLED for s in round_slots):
            break
        entries = [m.through for m in round_meetings]
        if r == total:
            winner = entries[0]
    table = standings(ids, [m.match for m in meetings if m.match is not None])
    return Schedule(tuple(slots), tuple(meetings), tuple(table), winner)


def qualifying_order(tables: Sequence[Sequence[TeamStanding]]) -> list[int]:
    """Every group's teams in the order they qualify for the knockout: their place in their group (the group
    winners first, then the runners-up…), then match points, board points, points difference and the group's
    number, as :func:`tournaments.formats.round_robin.group_order` ranks players."""
    ranked = [((row.rank, -row.match_points, -row.board_points, -(row.points_for - row.points_against), g), row.team)
              for g, table in enumerate(tables) for row in table]
    return [team for _, team in sorted(ranked)]


def derive_groups(teams: Sequence[Team], results: Mapping[str, Result], config: Config, count: int,
                  lengths: Lengths = Lengths(), lineups: Mapping[tuple[int, int], Sequence[int]] | None = None,
                  qualifiers: Sequence[int] | None = None, knockout_lengths: Lengths | None = None) -> Schedule:
    """A round robin of ``teams`` (in seed order) in ``count`` groups, the seeds dealt in snake order
    (:func:`tournaments.formats.round_robin.groups`: group 1 holds seeds 1, 2n, 2n + 1…), each group its own round
    robin of teams and its own table (``Schedule.groups``), its boards keyed by its group (:func:`group_stage`).
    ``qualifiers``: the teams drawn into the knockout that follows (in seed order: :func:`qualifying_order` of the
    final tables), played as :func:`derive_knockout` with its rounds numbered on from the groups'; its final's
    winner is the event's. Without a knockout the event has no single winner: each group has its own."""
    check_teams(teams, config)
    tables: list[tuple[TeamStanding, ...]] = []
    slots: list[Slot] = []
    meetings: list[Meeting] = []
    for g, members in enumerate(round_robin_groups(list(teams), count), 1):
        group = derive(members, results, config, lengths, lineups, group_stage(g, count))
        slots += group.slots
        meetings += group.meetings
        tables.append(group.standings)
    winner = None
    if qualifiers is not None:
        by_id = {t.id: t for t in teams}
        knockout = derive_knockout([by_id[t] for t in qualifiers], results, config, knockout_lengths or lengths,
                                   lineups, after=max((m.round for m in meetings), default=0), stage=KNOCKOUT)
        slots += knockout.slots
        meetings += knockout.meetings
        winner = knockout.winner
    return Schedule(tuple(slots), tuple(meetings), tuple(r for table in tables for r in table), winner, tuple(tables))
