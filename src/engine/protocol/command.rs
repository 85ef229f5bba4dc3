//! One input line of the engine protocol parsed into a [`Command`] (pure: no state, no I/O).
//!
//! Parsing checks only the shape of a line (keywords, numbers); moves and positions stay text here
//! and are read against the current position by the session, which knows the variant.

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    StartPos,
    /// The position string (`PIECES SIDE PLY`) as given, fields joined by one space.
    Fen(String),
}

/// The tokens of `go`, as given (clocks not yet resolved to the side to move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// White's (p1's) clock in ms; may be negative.
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<i64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Mate in this many moves (searched as a depth limit).
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Root moves to restrict the search to, as text.
    pub searchmoves: Vec<String>,
}

/// A `query` of the UGI protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
    IsLegal(String),
    Fen,
}

/// One command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Ugi,
    IsReady,
    Debug(bool),
    SetOption { name: String, value: Option<String> },
    NewGame,
    Position { setup: Setup, moves: Vec<String> },
    Go(GoParams),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    Display,
    Moves,
    Eval,
    Bench(Option<u32>),
    Query(Query),
    Help,
}

/// A parsed line: the command plus complaints about tokens that were ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub command: Command,
    pub warnings: Vec<String>,
}

/// Longest token quoted back in an error message.
const QUOTE_LEN: usize = 40;

/// A token for an error message, cut short when long, control characters escaped.
pub fn quote(token: &str) -> String {
    let mut s = String::new();
    for c in token.chars().take(QUOTE_LEN) {
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    if token.chars().nth(QUOTE_LEN).is_some() {
        s.push('…');
    }
    format!("'{s}'")
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Parses one line. `Ok(None)` for a blank line or a `#` comment; `Err` is the message of the
/// one error line to print when the line cannot be obeyed at all.
pub fn parse_line(line: &str) -> Result<Option<Parsed>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    if first.starts_with('#') {
        return Ok(None);
    }
    let word = first.to_ascii_lowercase();
    let mut warnings = Vec::new();
    let command = match word.as_str() {
        "uci" => no_args(Command::Uci, &word, rest, &mut warnings),
        "ugi" => no_args(Command::Ugi, &word, rest, &mut warnings),
        "isready" => no_args(Command::IsReady, &word, rest, &mut warnings),
        "ucinewgame" | "uginewgame" => no_args(Command::NewGame, &word, rest, &mut warnings),
        "stop" => no_args(Command::Stop, &word, rest, &mut warnings),
        "ponderhit" => no_args(Command::PonderHit, &word, rest, &mut warnings),
        "quit" => no_args(Command::Quit, &word, rest, &mut warnings),
        "d" | "showboard" => no_args(Command::Display, &word, rest, &mut warnings),
        "moves" | "legal" => no_args(Command::Moves, &word, rest, &mut warnings),
        "eval" => no_args(Command::Eval, &word, rest, &mut warnings),
        "help" | "list_commands" => no_args(Command::Help, &word, rest, &mut warnings),
        "debug" => parse_debug(rest, &mut warnings)?,
        "setoption" => parse_setoption(rest)?,
        "position" => parse_position(rest)?,
        "go" => parse_go(rest, &mut warnings)?,
        "perft" => Command::Perft(parse_perft(rest, &mut warnings)?),
        "bench" => parse_bench(rest, &mut warnings)?,
        "query" => parse_query(rest, &mut warnings)?,
        _ => {
            return Err(format!(
                "unknown command {} (help lists the commands)",
                quote(first)
            ))
        }
    };
    Ok(Some(Parsed { command, warnings }))
}

fn no_args(command: Command, word: &str, rest: &[&str], warnings: &mut Vec<String>) -> Command {
    if let Some(extra) = rest.first() {
        warnings.push(format!(
            "{word} takes no arguments: {} and after ignored",
            quote(extra)
        ));
    }
    command
}

fn parse_debug(rest: &[&str], warnings: &mut Vec<String>) -> Result<Command, String> {
    let on = match rest.first().map(|t| t.to_ascii_lowercase()).as_deref() {
        Some("on") => true,
        Some("off") => false,
        Some(_) => return Err(format!("debug needs on or off, not {}", quote(rest[0]))),
        None => return Err("debug needs on or off".to_string()),
    };
    if let Some(extra) = rest.get(1) {
        warnings.push(format!("debug: {} and after ignored", quote(extra)));
    }
    Ok(Command::Debug(on))
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    match rest.first() {
        Some(t) if t.eq_ignore_ascii_case("name") => {}
        _ => return Err("setoption needs: setoption name <name> [value <value>]".to_string()),
    }
    let rest = &rest[1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption: the option name is missing".to_string());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let moves_at = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &rest[rest.len()..]),
    };
    let setup = match head.first().map(|t| t.to_ascii_lowercase()).as_deref() {
        Some("startpos") => {
            if let Some(extra) = head.get(1) {
                return Err(format!(
                    "position not changed: {} after startpos (expected moves)",
                    quote(extra)
                ));
            }
            Setup::StartPos
        }
        Some("fen") => {
            if head.len() == 1 {
                return Err("position not changed: fen needs PIECES SIDE PLY".to_string());
            }
            Setup::Fen(head[1..].join(" "))
        }
        Some(_) => {
            return Err(format!(
                "position not changed: {} is neither startpos nor fen",
                quote(head[0])
            ))
        }
        None => return Err("position not changed: startpos or fen expected".to_string()),
    };
    Ok(Command::Position {
        setup,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn number<T: std::str::FromStr>(
    key: &str,
    tokens: &[&str],
    i: &mut usize,
    warnings: &mut Vec<String>,
) -> Option<T> {
    match tokens.get(*i + 1) {
        Some(t) if !GO_KEYWORDS.contains(&t.to_ascii_lowercase().as_str()) => {
            *i += 1;
            match t.parse() {
                Ok(v) => Some(v),
                Err(_) => {
                    warnings.push(format!(
                        "{key}: {} is not a valid number; {key} ignored",
                        quote(t)
                    ));
                    None
                }
            }
        }
        _ => {
            warnings.push(format!("{key} needs a number; ignored"));
            None
        }
    }
}

fn parse_go(rest: &[&str], warnings: &mut Vec<String>) -> Result<Command, String> {
    if rest
        .first()
        .is_some_and(|t| t.eq_ignore_ascii_case("perft"))
    {
        return Ok(Command::Perft(parse_perft(&rest[1..], warnings)?));
    }
    let mut go = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        match key.as_str() {
            "wtime" | "p1time" => go.wtime = number(&key, rest, &mut i, warnings),
            "btime" | "p2time" => go.btime = number(&key, rest, &mut i, warnings),
            "winc" | "p1inc" => go.winc = number(&key, rest, &mut i, warnings),
            "binc" | "p2inc" => go.binc = number(&key, rest, &mut i, warnings),
            "movestogo" => go.movestogo = number(&key, rest, &mut i, warnings),
            "movetime" => go.movetime = number(&key, rest, &mut i, warnings),
            "depth" => go.depth = number(&key, rest, &mut i, warnings),
            "nodes" => go.nodes = number(&key, rest, &mut i, warnings),
            "mate" => go.mate = number(&key, rest, &mut i, warnings),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(t) = rest.get(i + 1) {
                    if GO_KEYWORDS.contains(&t.to_ascii_lowercase().as_str()) {
                        break;
                    }
                    go.searchmoves.push(t.to_string());
                    i += 1;
                }
            }
            "perft" => {
                warnings.push("go: perft must come first (go perft <depth>); ignored".into())
            }
            _ => warnings.push(format!("go: unknown token {} ignored", quote(rest[i]))),
        }
        i += 1;
    }
    Ok(Command::Go(go))
}

fn parse_perft(rest: &[&str], warnings: &mut Vec<String>) -> Result<u32, String> {
    let depth = match rest.first() {
        Some(t) => t
            .parse()
            .map_err(|_| format!("perft: depth {} is not a whole number", quote(t)))?,
        None => return Err("perft needs a depth".to_string()),
    };
    if let Some(extra) = rest.get(1) {
        warnings.push(format!("perft: {} and after ignored", quote(extra)));
    }
    Ok(depth)
}

fn parse_bench(rest: &[&str], warnings: &mut Vec<String>) -> Result<Command, String> {
    let depth = match rest.first() {
        Some(t) => Some(
            t.parse()
                .ok()
                .filter(|&d| d > 0)
                .ok_or_else(|| format!("bench: depth {} is not a positive number", quote(t)))?,
        ),
        None => None,
    };
    if let Some(extra) = rest.get(1) {
        warnings.push(format!("bench: {} and after ignored", quote(extra)));
    }
    Ok(Command::Bench(depth))
}

fn parse_query(rest: &[&str], warnings: &mut Vec<String>) -> Result<Command, String> {
    let what = rest
        .first()
        .ok_or("query needs gameover, p1turn, result, islegal <move> or fen")?;
    let (query, used) = match what.to_ascii_lowercase().as_str() {
        "gameover" => (Query::GameOver, 1),
        "p1turn" => (Query::P1Turn, 1),
        "result" => (Query::Result, 1),
        "fen" | "pfen" => (Query::Fen, 1),
        "islegal" => {
            let mv = rest.get(1).ok_or("query islegal needs a move")?;
            (Query::IsLegal(mv.to_string()), 2)
        }
        _ => {
            return Err(format!(
                "unknown query {} (gameover, p1turn, result, islegal <move>, fen)",
                quote(what)
            ))
        }
    };
    if let Some(extra) = rest.get(used) {
        warnings.push(format!("query: {} and after ignored", quote(extra)));
    }
    Ok(Command::Query(query))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        let parsed = parse_line(line).unwrap().unwrap();
        assert!(parsed.warnings.is_empty(), "{line}: {:?}", parsed.warnings);
        parsed.command
    }

    fn warned(line: &str) -> (Command, Vec<String>) {
        let p = parse_line(line).unwrap().unwrap();
        assert!(!p.warnings.is_empty(), "{line} should warn");
        (p.command, p.warnings)
    }

    fn err(line: &str) -> String {
        parse_line(line).expect_err(line)
    }

    #[test]
    fn blank_lines_and_comments_are_nothing() {
        for line in ["", "   ", "\t", "# a comment", "#isready"] {
            assert_eq!(parse_line(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn simple_commands_any_case_and_spacing() {
        assert_eq!(cmd("uci"), Command::Uci);
        assert_eq!(cmd("  UGI  "), Command::Ugi);
        assert_eq!(cmd("isready\r"), Command::IsReady);
        assert_eq!(cmd("ucinewgame"), Command::NewGame);
        assert_eq!(cmd("uginewgame"), Command::NewGame);
        assert_eq!(cmd("stop"), Command::Stop);
        assert_eq!(cmd("ponderhit"), Command::PonderHit);
        assert_eq!(cmd("quit"), Command::Quit);
        assert_eq!(cmd("d"), Command::Display);
        assert_eq!(cmd("showboard"), Command::Display);
        assert_eq!(cmd("moves"), Command::Moves);
        assert_eq!(cmd("legal"), Command::Moves);
        assert_eq!(cmd("eval"), Command::Eval);
        assert_eq!(cmd("help"), Command::Help);
        assert_eq!(cmd("debug on"), Command::Debug(true));
        assert_eq!(cmd("debug OFF"), Command::Debug(false));
    }

    #[test]
    fn extra_tokens_are_ignored_with_a_warning() {
        let (c, w) = warned("isready now please");
        assert_eq!(c, Command::IsReady);
        assert!(w[0].contains("'now'"), "{w:?}");
        assert_eq!(warned("debug on loud").0, Command::Debug(true));
        assert_eq!(warned("bench 3 x").0, Command::Bench(Some(3)));
        assert_eq!(warned("query fen x").0, Command::Query(Query::Fen));
    }

    #[test]
    fn unknown_and_malformed_commands_are_errors() {
        assert!(err("frobnicate").contains("unknown command 'frobnicate'"));
        assert!(err("\u{fffd}\u{fffd}").contains("unknown command"));
        assert!(err("debug").contains("on or off"));
        assert!(err("debug maybe").contains("'maybe'"));
        assert!(err("setoption").contains("setoption name"));
        assert!(err("setoption Hash value 3").contains("setoption name"));
        assert!(err("setoption name").contains("name is missing"));
        assert!(err("setoption name value 3").contains("name is missing"));
        assert!(err("perft").contains("depth"));
        assert!(err("go perft x").contains("'x'"));
        assert!(err("bench 0").contains("'0'"));
        assert!(err("bench deep").contains("'deep'"));
        assert!(err("query").contains("query needs"));
        assert!(err("query islegal").contains("needs a move"));
        assert!(err("query colour").contains("'colour'"));
        // Control characters are not echoed raw.
        assert!(err("\u{1b}[2J").contains("'\\u{1b}[2J'"));
        // A long token is quoted short.
        let long = "x".repeat(10_000);
        assert!(err(&long).len() < 200);
    }

    #[test]
    fn setoption_names_and_values_keep_their_spaces() {
        assert_eq!(
            cmd("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            cmd("setoption NAME clear hash"),
            Command::SetOption {
                name: "clear hash".into(),
                value: None
            }
        );
        assert_eq!(
            cmd("setoption name Debug Log File value /tmp/a b.log"),
            Command::SetOption {
                name: "Debug Log File".into(),
                value: Some("/tmp/a b.log".into())
            }
        );
        assert_eq!(
            cmd("setoption name Hash value"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some(String::new())
            }
        );
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            cmd("position startpos"),
            Command::Position {
                setup: Setup::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            cmd("position startpos moves c5c6d6 f5f6f7"),
            Command::Position {
                setup: Setup::StartPos,
                moves: vec!["c5c6d6".into(), "f5f6f7".into()]
            }
        );
        assert_eq!(
            cmd("position fen Wc5c6d6/Bf5f6f7 w 2 moves pass"),
            Command::Position {
                setup: Setup::Fen("Wc5c6d6/Bf5f6f7 w 2".into()),
                moves: vec!["pass".into()]
            }
        );
        // The number of fields is the position parser's business.
        assert_eq!(
            cmd("position fen - w"),
            Command::Position {
                setup: Setup::Fen("- w".into()),
                moves: vec![]
            }
        );
        assert!(err("position").contains("startpos or fen"));
        assert!(err("position fen").contains("PIECES SIDE PLY"));
        assert!(err("position fen moves a1").contains("PIECES SIDE PLY"));
        assert!(err("position startpos c5c6d6").contains("'c5c6d6'"));
        assert!(err("position somewhere").contains("'somewhere'"));
    }

    #[test]
    fn go_tokens() {
        let Command::Go(g) = cmd(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 3 movetime 50 depth 4 nodes 99 \
             mate 2 infinite ponder searchmoves a1 b2 depth 5",
        ) else {
            panic!()
        };
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(-5));
        assert_eq!((g.winc, g.binc), (Some(10), Some(20)));
        assert_eq!(g.movestogo, Some(3));
        assert_eq!(g.movetime, Some(50));
        assert_eq!(g.depth, Some(5), "searchmoves stops at the next keyword");
        assert_eq!(g.nodes, Some(99));
        assert_eq!(g.mate, Some(2));
        assert!(g.infinite && g.ponder);
        assert_eq!(g.searchmoves, vec!["a1".to_string(), "b2".to_string()]);
        let Command::Go(u) = cmd("go p1time 7 p2time 8 p1inc 1 p2inc 2") else {
            panic!()
        };
        assert_eq!(
            (u.wtime, u.btime, u.winc, u.binc),
            (Some(7), Some(8), Some(1), Some(2))
        );
        assert_eq!(cmd("go"), Command::Go(GoParams::default()));
        assert_eq!(cmd("go perft 3"), Command::Perft(3));
        assert_eq!(cmd("perft 2"), Command::Perft(2));
        assert_eq!(cmd("bench"), Command::Bench(None));
        assert_eq!(cmd("bench 4"), Command::Bench(Some(4)));
    }

    #[test]
    fn bad_go_tokens_are_dropped_with_a_warning_and_the_rest_kept() {
        let (c, w) = warned("go depth abc movetime 100");
        let Command::Go(g) = c else { panic!() };
        assert_eq!((g.depth, g.movetime), (None, Some(100)));
        assert!(w[0].contains("'abc'"), "{w:?}");
        let (c, w) = warned("go depth infinite");
        let Command::Go(g) = c else { panic!() };
        assert!(g.infinite && g.depth.is_none());
        assert!(w[0].contains("depth needs a number"));
        let (_, w) = warned("go sideways depth 1");
        assert!(w[0].contains("'sideways'"));
        let (_, w) = warned("go depth -1");
        assert!(w[0].contains("'-1'"));
        let (_, w) = warned("go nodes 99999999999999999999999");
        assert!(w[0].contains("not a valid number"));
        let (_, w) = warned("go movetime");
        assert!(w[0].contains("movetime needs a number"));
    }

    #[test]
    fn queries() {
        assert_eq!(cmd("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(cmd("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(cmd("query result"), Command::Query(Query::Result));
        assert_eq!(cmd("query fen"), Command::Query(Query::Fen));
        assert_eq!(cmd("query pfen"), Command::Query(Query::Fen));
        assert_eq!(
            cmd("query islegal c5c6d6"),
            Command::Query(Query::IsLegal("c5c6d6".into()))
        );
    }
}
