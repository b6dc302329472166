"""The console's lookups: moves, rules, history, records, ratings, stats and settings (a
mixin of :class:`bot.console.commands.ConsoleTable`, whose table lists them)."""

from __future__ import annotations

from bot import wording
from bot.console.coach import CoachArgs, CoachConsole
from bot.console.output import CONSOLE_CHANNEL, CONSOLE_GUILD, LOCAL_PLAYERS, rules_text
from bot.results import BadInputError, Moderator
from bot.service import catalog
from bot.timeparse import format_duration


class LookupsConsole(CoachConsole):
    """Looking things up at the table (nothing here changes a game but the settings)."""

    def moderator(self) -> Moderator:
        """Whoever sits at the console runs their own table: they moderate it."""
        return Moderator(CONSOLE_GUILD, LOCAL_PLAYERS[0].user_id)

    @staticmethod
    def _size(args: CoachArgs) -> int:
        value = args.opts.get("size", str(catalog.DEFAULT_SIZE)).lower().split("x")[0]
        if not value.isdigit() or len(value) > 2:
            raise BadInputError("bad_board_size", size=args.opts.get("size"), sizes=[f"{n}x{n}" for n in catalog.SIZES])
        return catalog.check_size(int(value))

    async def moves(self, args: CoachArgs) -> None:
        game, lines = await self.service.moves(CONSOLE_CHANNEL)
        self.say(f"Moves of game #{game.id} (turn number, colour, actions):")
        for line in lines or ["No move has been played yet."]:
            self.say(f"  {line}")
        if game.status != "active":  # a finished game: how it ended, in words
            you = LOCAL_PLAYERS[0] if game.black.is_bot != game.white.is_bot else None
            self.say(f"  {wording.ending_text(game, self.lang, you)}")

    async def rules(self, args: CoachArgs) -> None:
        self.say(rules_text(catalog.check_variant(args.get("variant", catalog.DEFAULT_VARIANT)), self.lang))

    async def history(self, args: CoachArgs) -> None:
        games = await self.service.history(CONSOLE_GUILD, None, 10)
        if not games:
            self.say("No games yet.")
        for s in games:
            you = LOCAL_PLAYERS[0] if s.black.is_bot != s.white.is_bot else None  # "you resigned", as elsewhere
            how = wording.ending_text(s, self.lang, you) + (f" ({s.result} {s.reason})" if s.result else "")
            self.say(
                f"#{s.id}  {s.black.name} (black) vs {s.white.name} (white)  {s.variant} {s.size}x{s.size}"
                f"  {s.turns} turns  {how}"
            )

    async def record(self, args: CoachArgs) -> None:
        game_id = args.get("game").lstrip("#")
        gid = int(game_id) if game_id.isdecimal() and len(game_id) <= 30 else None
        if game_id and gid is None:
            raise BadInputError("bad_number", value=game_id)
        rec = await self.service.record(CONSOLE_GUILD, gid, CONSOLE_CHANNEL, user_id=LOCAL_PLAYERS[0].user_id)
        self.say(rec.sgn.rstrip())
        if self.image_dir is not None:
            self.image_dir.mkdir(parents=True, exist_ok=True)
            path = self.image_dir / rec.filename
            path.write_text(rec.sgn, encoding="utf-8")
            self.say(f"Record written to {path}")
            if rec.replay is not None and rec.replay_filename:
                replay = self.image_dir / rec.replay_filename
                replay.write_bytes(rec.replay)
                self.say(f"Replay written to {replay}")

    async def leaderboard(self, args: CoachArgs) -> None:
        entries = await self.service.leaderboard(CONSOLE_GUILD, self._size(args))
        if not entries:
            self.say("No rated games on this board size yet (games against the bot are not rated).")
        for e in entries:
            self.say(f"{e.rank}. {e.name}  {e.rating:.0f} (+/-{e.rd:.0f})  {e.wins}-{e.losses}-{e.draws}")

    async def stats(self, args: CoachArgs) -> None:
        st = await self.service.stats(CONSOLE_GUILD, LOCAL_PLAYERS[0].user_id, LOCAL_PLAYERS[0].name)
        p = st.versus_people
        # "You", as the games and the review say it; the name too, as history lists it.
        self.say(f"You ({st.name}): against people {p.wins} won, {p.losses} lost, {p.draws} drawn.")
        for level, tally in st.versus_bot.items():
            self.say(f"  against the bot ({level}): {tally.wins} won, {tally.losses} lost, {tally.draws} drawn")
        await self.coach_stats()

    async def settings(self, args: CoachArgs) -> None:
        opts = args.opts
        if opts:
            settings = await self.service.set_settings(
                CONSOLE_GUILD,
                opts.get("turn_timeout"),
                opts.get("challenge_timeout"),
                opts.get("default_variant"),
                moderator=self.moderator(),
            )
        else:
            settings = await self.service.get_settings(CONSOLE_GUILD)
        self.say(
            f"turn_timeout {format_duration(settings.turn_timeout)}, challenge_timeout "
            f"{format_duration(settings.challenge_timeout)}, default_variant {settings.default_variant}"
        )
