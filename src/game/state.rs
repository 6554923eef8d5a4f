//! One game as it is played: the moves so far with their times and comments, and the rules
//! that end it ([`Game::play`], [`Game::declare`], [`Game::resign`], [`Game::lose`]). Who
//! moves (an engine, a person) is the caller's; this only knows the rules.

use crate::core::rules::{
    Color, DeclarationRule, Declared, Illegal, Move, Position, Repeated, Repetition, declare,
};
use std::time::Duration;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move is checkmated.
    Mate,
    Resign,
    /// An entering-king declaration that holds (a win, or a draw under the 24-point rule).
    Declaration,
    /// A declaration that does not hold: why.
    FalseDeclaration(String),
    /// Fourfold repetition.
    Repetition,
    /// Fourfold repetition with one side checking all through: it loses.
    PerpetualCheck,
    /// The loser's flag fell.
    Time,
    /// The loser played (or its engine sent) an illegal move: what and why.
    Illegal {
        text: String,
        reason: String,
    },
    /// The loser's engine crashed, stopped answering, or failed otherwise: what happened.
    Fault(String),
    /// The move limit was reached: a draw.
    MaxMoves,
    /// Drawn by the match's rule on the engines' scores (`--draw`): why.
    AdjudicatedDraw(String),
    /// The game was stopped before its end (a person quit): no result.
    Interrupted,
}

impl EndReason {
    /// Short English text, for logs and the JSON's errors.
    pub fn describe(&self) -> String {
        match self {
            EndReason::Mate => "checkmate".into(),
            EndReason::Resign => "resignation".into(),
            EndReason::Declaration => "entering-king declaration".into(),
            EndReason::FalseDeclaration(why) => format!("false entering-king declaration: {why}"),
            EndReason::Repetition => "repetition (sennichite)".into(),
            EndReason::PerpetualCheck => "perpetual check".into(),
            EndReason::Time => "loss on time".into(),
            EndReason::Illegal { text, reason } => format!("illegal move {text}: {reason}"),
            EndReason::Fault(what) => what.clone(),
            EndReason::MaxMoves => "move limit".into(),
            EndReason::AdjudicatedDraw(why) => why.clone(),
            EndReason::Interrupted => "interrupted".into(),
        }
    }
}

/// How a game ended: the winner (None: a draw, or no result when interrupted) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// The side to move when it ended (who the ending word is written for).
    pub to_move: Color,
}

/// The rules of a game besides those of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// The game is a draw when this many moves were played (0: no limit).
    pub max_moves: u32,
    pub declaration: DeclarationRule,
}

impl Default for GameRules {
    fn default() -> GameRules {
        GameRules {
            max_moves: 512,
            declaration: DeclarationRule::Points27,
        }
    }
}

/// One move played, with what was charged for it and its comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    /// None: not timed (an opening move).
    pub spent: Option<Duration>,
    pub comment: String,
}

/// A game from a start position.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    played: Vec<Played>,
    repetition: Repetition,
    rules: GameRules,
    outcome: Option<GameEnd>,
    /// The time charged for the ending (a resignation's thinking time, a flag's overrun).
    end_time: Option<Duration>,
    end_comment: String,
}

impl Game {
    pub fn new(start: Position, rules: GameRules) -> Game {
        Game {
            repetition: Repetition::new(&start),
            position: start.clone(),
            start,
            played: Vec::new(),
            rules,
            outcome: None,
            end_time: None,
            end_comment: String::new(),
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    pub fn played(&self) -> &[Played] {
        &self.played
    }

    pub fn moves(&self) -> Vec<Move> {
        self.played.iter().map(|p| p.mv).collect()
    }

    pub fn rules(&self) -> GameRules {
        self.rules
    }

    pub fn outcome(&self) -> Option<&GameEnd> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The time charged for the ending, and its comment.
    pub fn ending_extra(&self) -> (Option<Duration>, &str) {
        (self.end_time, &self.end_comment)
    }

    /// Plays `mv` for the side to move, after checking it with the rules, and says whether the
    /// game ends there (mate, repetition, the move limit). An illegal move changes nothing: the
    /// caller decides (a person is told, an engine loses by [`Game::illegal`]).
    pub fn play(
        &mut self,
        mv: Move,
        spent: Option<Duration>,
        comment: String,
    ) -> Result<Option<&GameEnd>, Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::CannotReach);
        }
        self.position.play(mv)?;
        self.played.push(Played { mv, spent, comment });
        let to_move = self.position.side_to_move();
        let ended = match self.repetition.push(&self.position) {
            Some(Repeated::PerpetualCheck { checker }) => {
                Some((Some(checker.flip()), EndReason::PerpetualCheck))
            }
            Some(Repeated::Draw) => Some((None, EndReason::Repetition)),
            None if self.position.legal_moves().is_empty() => {
                // No legal move: in check it is mate; without, shogi has no stalemate, the
                // side to move loses too.
                Some((Some(to_move.flip()), EndReason::Mate))
            }
            None if self.rules.max_moves > 0
                && self.played.len() as u32 >= self.rules.max_moves =>
            {
                Some((None, EndReason::MaxMoves))
            }
            None => None,
        };
        if let Some((winner, reason)) = ended {
            self.end(winner, reason);
        }
        Ok(self.outcome.as_ref())
    }

    fn end(&mut self, winner: Option<Color>, reason: EndReason) -> &GameEnd {
        self.outcome.insert(GameEnd {
            winner,
            reason,
            to_move: self.position.side_to_move(),
        })
    }

    /// Ends the game with `reason`, `loser` losing (the side to move unless said otherwise), the
    /// time `spent` on the ending and a comment for it. Nothing when it is over already.
    pub fn lose(
        &mut self,
        loser: Color,
        reason: EndReason,
        spent: Option<Duration>,
        comment: String,
    ) -> &GameEnd {
        if self.outcome.is_none() {
            self.end_time = spent;
            self.end_comment = comment;
            self.end(Some(loser.flip()), reason);
        }
        self.outcome.as_ref().expect("ended")
    }

    /// Ends the game drawn by adjudication (`why`). Nothing when it is over already.
    pub fn adjudicate_draw(&mut self, why: String) -> &GameEnd {
        if self.outcome.is_none() {
            self.end_time = None;
            self.end_comment = String::new();
            self.end(None, EndReason::AdjudicatedDraw(why));
        }
        self.outcome.as_ref().expect("ended")
    }

    /// The side to move resigns.
    pub fn resign(&mut self, spent: Option<Duration>, comment: String) -> &GameEnd {
        self.lose(self.side_to_move(), EndReason::Resign, spent, comment)
    }

    /// The side to move's move was illegal (`text`, `reason`): it loses.
    pub fn illegal(&mut self, text: &str, reason: &str, spent: Option<Duration>) -> &GameEnd {
        let reason = EndReason::Illegal {
            text: crate::core::text::sanitize(text).into_owned(),
            reason: reason.to_string(),
        };
        self.lose(self.side_to_move(), reason, spent, String::new())
    }

    /// The side to move declares a win by entering king: the rule decides.
    pub fn declare(&mut self, spent: Option<Duration>, comment: String) -> &GameEnd {
        if self.outcome.is_none() {
            self.end_time = spent;
            self.end_comment = comment;
            let side = self.side_to_move();
            match declare(&self.position, self.rules.declaration) {
                Declared::Win => self.end(Some(side), EndReason::Declaration),
                Declared::Draw => self.end(None, EndReason::Declaration),
                Declared::Loss(why) => self.end(
                    Some(side.flip()),
                    EndReason::FalseDeclaration(why.describe()),
                ),
            };
        }
        self.outcome.as_ref().expect("ended")
    }

    /// Stops the game with no result.
    pub fn interrupt(&mut self) -> &GameEnd {
        if self.outcome.is_none() {
            self.end(None, EndReason::Interrupted);
        }
        self.outcome.as_ref().expect("ended")
    }

    /// Takes back the last `n` moves (and the ending, if the game was over). Returns how many
    /// were taken back.
    pub fn take_back(&mut self, n: usize) -> usize {
        let n = n.min(self.played.len());
        self.outcome = None;
        self.end_time = None;
        self.end_comment.clear();
        self.played.truncate(self.played.len() - n);
        self.repetition.pop(n);
        self.position = self.start.clone();
        for p in &self.played {
            self.position.play_unchecked(p.mv);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::from_usi(s).unwrap()
    }

    fn play_all(g: &mut Game, moves: &str) -> Option<GameEnd> {
        let mut last = None;
        for m in moves.split_whitespace() {
            last = g.play(mv(m), None, String::new()).unwrap().cloned();
        }
        last
    }

    #[test]
    fn mate_ends_the_game_for_the_mover() {
        // Fool's-mate-like: a gold drop mate.
        let start = Position::from_sfen("4k4/9/4G4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mut g = Game::new(start, GameRules::default());
        let o = play_all(&mut g, "G*5b").unwrap();
        assert_eq!(o.winner, Some(Color::Black));
        assert_eq!(o.reason, EndReason::Mate);
        assert_eq!(o.to_move, Color::White);
        assert!(g.play(mv("5a4a"), None, String::new()).is_err(), "over");
    }

    #[test]
    fn an_illegal_move_changes_nothing_and_can_lose() {
        let mut g = Game::new(Position::startpos(), GameRules::default());
        assert!(g.play(mv("7g7e"), None, String::new()).is_err());
        assert!(g.played().is_empty() && !g.is_over());
        let o = g.illegal("7g7e", "cannot move there", Some(Duration::from_millis(5)));
        assert_eq!(o.winner, Some(Color::White));
        assert_eq!(g.ending_extra().0, Some(Duration::from_millis(5)));
    }

    #[test]
    fn repetition_and_perpetual_check_end_it() {
        let mut g = Game::new(Position::startpos(), GameRules::default());
        let o = play_all(&mut g, &"5i5h 5a5b 5h5i 5b5a ".repeat(3)).unwrap();
        assert_eq!((o.winner, o.reason), (None, EndReason::Repetition));
        assert_eq!(g.played().len(), 12);
        let start = Position::from_sfen("4k4/9/4R4/9/9/9/9/9/K8 w - 1").unwrap();
        let mut g = Game::new(start, GameRules::default());
        let o = play_all(&mut g, &"5a4a 5c4c 4a5a 4c5c ".repeat(3)).unwrap();
        assert_eq!(o.winner, Some(Color::White), "the checker loses");
        assert_eq!(o.reason, EndReason::PerpetualCheck);
    }

    #[test]
    fn the_move_limit_draws_and_takeback_reopens() {
        let rules = GameRules {
            max_moves: 4,
            ..GameRules::default()
        };
        let mut g = Game::new(Position::startpos(), rules);
        let o = play_all(&mut g, "7g7f 3c3d 2g2f 8c8d").unwrap();
        assert_eq!((o.winner, o.reason), (None, EndReason::MaxMoves));
        assert_eq!(g.take_back(2), 2);
        assert!(!g.is_over());
        assert_eq!(g.side_to_move(), Color::Black);
        assert_eq!(g.moves(), vec![mv("7g7f"), mv("3c3d")]);
        assert_eq!(play_all(&mut g, "2g2f"), None);
    }

    #[test]
    fn declarations_are_decided_by_the_rule() {
        let win = Position::from_sfen("PPPPPPPPP/4K3P/9/9/9/9/9/9/4k4 b 2R2B 1").unwrap();
        let mut g = Game::new(win.clone(), GameRules::default());
        let o = g.declare(None, String::new());
        assert_eq!(
            (o.winner, &o.reason),
            (Some(Color::Black), &EndReason::Declaration)
        );
        let rules = GameRules {
            declaration: DeclarationRule::Points24,
            ..GameRules::default()
        };
        let mut g = Game::new(win, rules);
        assert_eq!(
            g.declare(None, String::new()).winner,
            None,
            "30 points: a draw"
        );
        let mut g = Game::new(Position::startpos(), GameRules::default());
        let o = g.declare(None, String::new()).clone();
        assert_eq!(o.winner, Some(Color::White));
        assert!(matches!(o.reason, EndReason::FalseDeclaration(ref w) if w.contains("camp")));
    }

    #[test]
    fn resign_and_faults_name_the_loser() {
        let mut g = Game::new(Position::startpos(), GameRules::default());
        play_all(&mut g, "7g7f");
        let o = g.resign(Some(Duration::from_secs(1)), String::new());
        assert_eq!((o.winner, o.to_move), (Some(Color::Black), Color::White));
        let mut g = Game::new(Position::startpos(), GameRules::default());
        let o = g.lose(
            Color::Black,
            EndReason::Fault("crashed".into()),
            None,
            "engine A crashed".into(),
        );
        assert_eq!(o.winner, Some(Color::White));
        assert_eq!(g.ending_extra().1, "engine A crashed");
    }
}
