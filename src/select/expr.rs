//! A small expression language for the user's `Ts`, `Tc`, `Tr` and `To` formulas.
//!
//! Grammar (lowest precedence first; `^` is right-associative and binds tighter than unary
//! minus, so `-2^2 = -4` and `2^3^2 = 512`):
//!
//! ```text
//! sum     = product { ("+" | "-") product }
//! product = unary { ("*" | "/") unary }
//! unary   = "-" unary | "+" unary | power
//! power   = atom [ "^" unary ]
//! atom    = number | name | name "(" sum { "," sum } ")" | "(" sum ")"
//! number  = digits [ "." digits ] [ ("e" | "E") [ "+" | "-" ] digits ]   (also ".5")
//! ```
//!
//! Names are `P` (the number of stations, the only variable), `N`, `alpha`, `beta`, `nstep`,
//! `t_mult`, `t_add` and the user's constants; functions are `sqrt`, `log` (natural), `log2`,
//! `exp`, `ceil`, `floor`, `abs` (one argument) and `min`, `max` (two or more).
//!
//! A formula is parsed once ([`parse`]) into a tree, then compiled ([`Expr::compile`]) with its
//! constants bound and folded into a flat [`Program`] for a stack machine, which
//! [`Program::eval`] runs for each `P` without allocating. [`Expr::eval_tree`] walks the tree
//! instead: the benchmark's same-run baseline.
//!
//! Determinism: `+ - * /` and `sqrt` are IEEE-exact everywhere; every other function (and `^`)
//! goes through `libm`, so a formula gives bit-identical results natively and in wasm.
//!
//! Errors ([`ExprError`]) give the 0-based character offset of the problem and a sentence, e.g.
//! `unknown name 'Pp' at character 7`. The parser never panics: its recursion is bounded by
//! [`MAX_DEPTH`] and its input by [`MAX_CHARS`].

use std::collections::BTreeMap;
use std::fmt;

/// Longest formula accepted, in characters.
pub const MAX_CHARS: usize = 2000;
/// Deepest nesting of parentheses, unary operators and powers.
pub const MAX_DEPTH: usize = 64;

/// The built-in names every formula may use besides the user's constants. `P` is the variable.
pub const BUILTIN_NAMES: [&str; 7] = ["P", "N", "alpha", "beta", "nstep", "t_mult", "t_add"];

/// A formula problem: where (0-based character offset into the formula) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at character {}", self.message, self.offset)
    }
}

/// One-argument functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func1 {
    Sqrt,
    Log,
    Log2,
    Exp,
    Ceil,
    Floor,
    Abs,
}

impl Func1 {
    fn apply(self, x: f64) -> f64 {
        match self {
            Func1::Sqrt => x.sqrt(),
            Func1::Log => libm::log(x),
            Func1::Log2 => libm::log2(x),
            Func1::Exp => libm::exp(x),
            Func1::Ceil => libm::ceil(x),
            Func1::Floor => libm::floor(x),
            Func1::Abs => x.abs(),
        }
    }
}

/// Binary operators (`Min`/`Max` come from the functions of two or more arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Min,
    Max,
}

impl Op {
    fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Op::Add => a + b,
            Op::Sub => a - b,
            Op::Mul => a * b,
            Op::Div => a / b,
            Op::Pow => libm::pow(a, b),
            // NaN-propagating, so a NaN argument never disappears silently
            Op::Min => {
                if a.is_nan() || b.is_nan() {
                    f64::NAN
                } else if b < a {
                    b
                } else {
                    a
                }
            }
            Op::Max => {
                if a.is_nan() || b.is_nan() {
                    f64::NAN
                } else if b > a {
                    b
                } else {
                    a
                }
            }
        }
    }
}

/// A parsed formula. Names keep their text and offset until [`Expr::compile`] binds them.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64),
    Name(String, usize),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    Call(Func1, Box<Expr>),
}

/// Values of the names a formula may use; `P` is supplied at evaluation.
pub type Constants = BTreeMap<String, f64>;

impl Expr {
    /// Evaluates the tree directly, looking every name up by text: the slow baseline the
    /// benchmark compares [`Program::eval`] against. Unknown names evaluate to NaN.
    pub fn eval_tree(&self, p: f64, constants: &Constants) -> f64 {
        match self {
            Expr::Num(v) => *v,
            Expr::Name(n, _) => {
                if n == "P" {
                    p
                } else {
                    constants.get(n).copied().unwrap_or(f64::NAN)
                }
            }
            Expr::Neg(e) => -e.eval_tree(p, constants),
            Expr::Bin(op, a, b) => op.apply(a.eval_tree(p, constants), b.eval_tree(p, constants)),
            Expr::Call(f, a) => f.apply(a.eval_tree(p, constants)),
        }
    }

    /// Binds the names to `constants` (`P` stays the variable), folds every sub-expression that
    /// does not involve `P` into one number, and flattens the rest into a [`Program`].
    ///
    /// # Errors
    /// The first (leftmost) name that is neither `P` nor a key of `constants`.
    pub fn compile(&self, constants: &Constants) -> Result<Program, ExprError> {
        let mut code = Vec::new();
        let folded = self.fold(constants)?;
        emit(&folded, &mut code);
        let mut depth = 0usize;
        let mut max_depth = 0usize;
        for ins in &code {
            match ins {
                Ins::Const(_) | Ins::P => depth += 1,
                Ins::Bin(_) => depth -= 1,
                Ins::Neg | Ins::Call(_) => {}
            }
            max_depth = max_depth.max(depth);
        }
        Ok(Program {
            code,
            stack: max_depth,
        })
    }

    /// The tree with names bound: `Some(value)` parts are constant.
    fn fold(&self, constants: &Constants) -> Result<Folded, ExprError> {
        Ok(match self {
            Expr::Num(v) => Folded::Const(*v),
            Expr::Name(n, at) => {
                if n == "P" {
                    Folded::P
                } else if let Some(v) = constants.get(n) {
                    Folded::Const(*v)
                } else {
                    return Err(unknown_name(n, *at, constants));
                }
            }
            Expr::Neg(e) => match e.fold(constants)? {
                Folded::Const(v) => Folded::Const(-v),
                f => Folded::Neg(Box::new(f)),
            },
            Expr::Bin(op, a, b) => match (a.fold(constants)?, b.fold(constants)?) {
                (Folded::Const(x), Folded::Const(y)) => Folded::Const(op.apply(x, y)),
                (x, y) => Folded::Bin(*op, Box::new(x), Box::new(y)),
            },
            Expr::Call(f, a) => match a.fold(constants)? {
                Folded::Const(v) => Folded::Const(f.apply(v)),
                x => Folded::Call(*f, Box::new(x)),
            },
        })
    }

    /// Whether the formula mentions `P`.
    pub fn uses_p(&self) -> bool {
        match self {
            Expr::Num(_) => false,
            Expr::Name(n, _) => n == "P",
            Expr::Neg(e) | Expr::Call(_, e) => e.uses_p(),
            Expr::Bin(_, a, b) => a.uses_p() || b.uses_p(),
        }
    }
}

fn unknown_name(n: &str, at: usize, constants: &Constants) -> ExprError {
    let mut known: Vec<&str> = vec!["P"];
    known.extend(constants.keys().map(String::as_str));
    ExprError {
        offset: at,
        message: format!(
            "unknown name '{}'; known names: {}",
            truncate(n, 40),
            known.join(", ")
        ),
    }
}

enum Folded {
    Const(f64),
    P,
    Neg(Box<Folded>),
    Bin(Op, Box<Folded>, Box<Folded>),
    Call(Func1, Box<Folded>),
}

/// One stack-machine instruction.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ins {
    Const(f64),
    P,
    Neg,
    Bin(Op),
    Call(Func1),
}

fn emit(f: &Folded, code: &mut Vec<Ins>) {
    match f {
        Folded::Const(v) => code.push(Ins::Const(*v)),
        Folded::P => code.push(Ins::P),
        Folded::Neg(e) => {
            emit(e, code);
            code.push(Ins::Neg);
        }
        Folded::Bin(op, a, b) => {
            emit(a, code);
            emit(b, code);
            code.push(Ins::Bin(*op));
        }
        Folded::Call(func, a) => {
            emit(a, code);
            code.push(Ins::Call(*func));
        }
    }
}

/// A compiled formula: postfix code over one variable `P`.
///
/// # Complexity
/// [`Program::eval`] is `O(L)` for `L` instructions, with no allocation given a scratch stack of
/// [`Program::stack_len`] values.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    code: Vec<Ins>,
    stack: usize,
}

impl Program {
    /// Stack slots [`Program::eval`] needs.
    pub fn stack_len(&self) -> usize {
        self.stack
    }

    /// Instructions left after constant folding (a formula without `P` is one).
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// Whether the program is empty (never, for a parsed formula).
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    /// Evaluates at `p`, using `scratch` as the stack (resized as needed).
    pub fn eval(&self, p: f64, scratch: &mut Vec<f64>) -> f64 {
        scratch.clear();
        for ins in &self.code {
            match *ins {
                Ins::Const(v) => scratch.push(v),
                Ins::P => scratch.push(p),
                Ins::Neg => {
                    if let Some(top) = scratch.last_mut() {
                        *top = -*top;
                    }
                }
                Ins::Call(f) => {
                    if let Some(top) = scratch.last_mut() {
                        *top = f.apply(*top);
                    }
                }
                Ins::Bin(op) => {
                    let b = scratch.pop().unwrap_or(f64::NAN);
                    if let Some(top) = scratch.last_mut() {
                        *top = op.apply(*top, b);
                    }
                }
            }
        }
        scratch.last().copied().unwrap_or(f64::NAN)
    }
}

/// Parses a formula.
///
/// # Errors
/// An [`ExprError`] with the 0-based character offset of the first problem: an unexpected or
/// missing token, an unknown function or a wrong number of arguments, a formula over
/// [`MAX_CHARS`] characters or nested deeper than [`MAX_DEPTH`]. Unknown names are found by
/// [`Expr::compile`], which knows the constants.
///
/// # Example
/// ```
/// use placelab::select::expr::{parse, Constants};
/// let e = parse("2 * P ^ 2 + N").unwrap();
/// let c: Constants = [("N".to_string(), 1.0)].into_iter().collect();
/// assert_eq!(e.compile(&c).unwrap().eval(3.0, &mut Vec::new()), 19.0);
/// ```
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > MAX_CHARS {
        return Err(ExprError {
            offset: MAX_CHARS,
            message: format!(
                "the formula has {} characters; the limit is {MAX_CHARS}",
                chars.len()
            ),
        });
    }
    let mut p = Parser {
        chars,
        pos: 0,
        depth: 0,
    };
    p.skip_ws();
    if p.pos >= p.chars.len() {
        return Err(ExprError {
            offset: 0,
            message: "empty formula; write e.g. 0 or N / P".into(),
        });
    }
    let e = p.sum()?;
    p.skip_ws();
    if p.pos < p.chars.len() {
        let c = p.chars[p.pos];
        let message = if c == ')' {
            "unmatched ')'".to_string()
        } else {
            format!("unexpected '{c}' after a complete expression (missing operator?)")
        };
        return Err(ExprError {
            offset: p.pos,
            message,
        });
    }
    Ok(e)
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn skip_ws(&mut self) {
        while self.pos < self.chars.len() && self.chars[self.pos].is_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.chars.get(self.pos).copied()
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError {
                offset: self.pos,
                message: format!("the formula nests deeper than {MAX_DEPTH} levels"),
            });
        }
        Ok(())
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.product()?;
        while let Some(c @ ('+' | '-')) = self.peek() {
            self.pos += 1;
            let right = self.product()?;
            let op = if c == '+' { Op::Add } else { Op::Sub };
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn product(&mut self) -> Result<Expr, ExprError> {
        let mut left = self.unary()?;
        while let Some(c @ ('*' | '/')) = self.peek() {
            self.pos += 1;
            let right = self.unary()?;
            let op = if c == '*' { Op::Mul } else { Op::Div };
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        self.enter()?;
        let r = match self.peek() {
            Some('-') => {
                self.pos += 1;
                self.unary().map(|e| Expr::Neg(Box::new(e)))
            }
            Some('+') => {
                self.pos += 1;
                self.unary()
            }
            _ => self.power(),
        };
        self.depth -= 1;
        r
    }

    fn power(&mut self) -> Result<Expr, ExprError> {
        let base = self.atom()?;
        if self.peek() == Some('^') {
            self.pos += 1;
            // right-associative; the exponent may carry its own sign: 2^-1
            let exp = self.unary()?;
            return Ok(Expr::Bin(Op::Pow, Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Expr, ExprError> {
        let start = match self.peek() {
            None => {
                return Err(ExprError {
                    offset: self.chars.len(),
                    message: "the formula ends where a number, name or '(' was expected".into(),
                })
            }
            Some(_) => self.pos,
        };
        let c = self.chars[start];
        if c.is_ascii_digit() || c == '.' {
            return self.number();
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let mut end = start;
            while end < self.chars.len()
                && (self.chars[end].is_ascii_alphanumeric() || self.chars[end] == '_')
            {
                end += 1;
            }
            let name: String = self.chars[start..end].iter().collect();
            self.pos = end;
            if self.peek() == Some('(') {
                return self.call(&name, start);
            }
            return Ok(Expr::Name(name, start));
        }
        if c == '(' {
            self.enter()?;
            self.pos += 1;
            let e = self.sum()?;
            if self.peek() != Some(')') {
                return Err(ExprError {
                    offset: self.pos,
                    message: format!("missing ')' to close {}", self.opened(start)),
                });
            }
            self.pos += 1;
            self.depth -= 1;
            return Ok(e);
        }
        let message = match c {
            ')' => "unexpected ')': a number, name or '(' was expected".to_string(),
            '*' | '/' | '^' | ',' => {
                format!("unexpected '{c}': a number, name or '(' was expected")
            }
            _ => format!("unexpected character '{c}'"),
        };
        Err(ExprError {
            offset: start,
            message,
        })
    }

    fn number(&mut self) -> Result<Expr, ExprError> {
        let start = self.pos;
        let n = self.chars.len();
        let mut end = start;
        let digits = |end: &mut usize, chars: &[char]| {
            let s = *end;
            while *end < n && chars[*end].is_ascii_digit() {
                *end += 1;
            }
            *end - s
        };
        let mut mantissa = digits(&mut end, &self.chars);
        if end < n && self.chars[end] == '.' {
            end += 1;
            mantissa += digits(&mut end, &self.chars);
        }
        if mantissa == 0 {
            return Err(ExprError {
                offset: start,
                message: "a number needs digits: write 0.5, not .".into(),
            });
        }
        if end < n && (self.chars[end] == 'e' || self.chars[end] == 'E') {
            let e_at = end;
            end += 1;
            if end < n && (self.chars[end] == '+' || self.chars[end] == '-') {
                end += 1;
            }
            if digits(&mut end, &self.chars) == 0 {
                return Err(ExprError {
                    offset: e_at,
                    message: "an exponent needs digits: write 1e-3".into(),
                });
            }
        }
        let text: String = self.chars[start..end].iter().collect();
        self.pos = end;
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Expr::Num(v)),
            _ => Err(ExprError {
                offset: start,
                message: format!("the number {} is too large", truncate(&text, 40)),
            }),
        }
    }

    fn call(&mut self, name: &str, at: usize) -> Result<Expr, ExprError> {
        let f1 = match name {
            "sqrt" => Some(Func1::Sqrt),
            "log" | "ln" => Some(Func1::Log),
            "log2" => Some(Func1::Log2),
            "exp" => Some(Func1::Exp),
            "ceil" => Some(Func1::Ceil),
            "floor" => Some(Func1::Floor),
            "abs" => Some(Func1::Abs),
            _ => None,
        };
        let op = match name {
            "min" => Some(Op::Min),
            "max" => Some(Op::Max),
            _ => None,
        };
        if f1.is_none() && op.is_none() {
            return Err(ExprError {
                offset: at,
                message: format!(
                    "unknown function '{}'; functions: sqrt, log, log2, exp, ceil, floor, abs, min, max",
                    truncate(name, 40)
                ),
            });
        }
        self.enter()?;
        self.pos += 1; // '('
        let mut args = vec![self.sum()?];
        loop {
            match self.peek() {
                Some(',') => {
                    self.pos += 1;
                    args.push(self.sum()?);
                }
                Some(')') => {
                    self.pos += 1;
                    break;
                }
                _ => {
                    return Err(ExprError {
                        offset: self.pos,
                        message: format!("missing ')' to close {}", self.opened(at)),
                    })
                }
            }
        }
        self.depth -= 1;
        if let Some(f) = f1 {
            if args.len() != 1 {
                return Err(ExprError {
                    offset: at,
                    message: format!("{name} takes one argument, got {}", args.len()),
                });
            }
            let a = args.pop().expect("one argument");
            return Ok(Expr::Call(f, Box::new(a)));
        }
        let op = op.expect("min or max");
        if args.len() < 2 {
            return Err(ExprError {
                offset: at,
                message: format!("{name} takes two or more arguments, got 1"),
            });
        }
        let mut it = args.into_iter();
        let first = it.next().expect("two arguments");
        Ok(it.fold(first, |acc, a| Expr::Bin(op, Box::new(acc), Box::new(a))))
    }
}

impl Parser {
    /// The formula from an unclosed `(` (or the function name before it) at `start` up to the
    /// parse position, quoted and shortened, so that a message on it states one position only:
    /// the error's own (`missing ')' to close '(P + 1' at character 6`).
    fn opened(&self, start: usize) -> String {
        let end = self.pos.min(self.chars.len());
        let text: String = self.chars[start..end].iter().collect();
        format!("'{}'", truncate(text.trim_end(), 24))
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// Parses and compiles in one step.
///
/// # Errors
/// As [`parse`] and [`Expr::compile`].
pub fn compile(text: &str, constants: &Constants) -> Result<Program, ExprError> {
    parse(text)?.compile(constants)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consts() -> Constants {
        [("N", 10.0), ("alpha", 2.0)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }

    fn ev(text: &str, p: f64) -> f64 {
        compile(text, &consts()).unwrap().eval(p, &mut Vec::new())
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(ev("1 + 2 * 3", 0.0), 7.0);
        assert_eq!(ev("(1 + 2) * 3", 0.0), 9.0);
        assert_eq!(ev("-2^2", 0.0), -4.0);
        assert_eq!(ev("2^3^2", 0.0), 512.0);
        assert_eq!(ev("2^-1", 0.0), 0.5);
        assert_eq!(ev("8 / 4 / 2", 0.0), 1.0);
        assert_eq!(ev("10 - 3 - 2", 0.0), 5.0);
        assert_eq!(ev("N / P + alpha", 5.0), 4.0);
        assert_eq!(ev("min(P, 3, N)", 7.0), 3.0);
        assert_eq!(ev("max(P, 3)", 7.0), 7.0);
        assert_eq!(ev("sqrt(P) * sqrt(P)", 9.0), 9.0);
        assert_eq!(ev("ceil(P / 2) + floor(2.5) + abs(-1)", 3.0), 5.0);
        assert_eq!(ev("1.5e3 + .5", 0.0), 1500.5);
    }

    #[test]
    fn compiled_program_agrees_with_the_tree() {
        let c = consts();
        for f in [
            "N^3 / P * (alpha + 1)",
            "log(P) + exp(-P) * log2(N)",
            "-(P - N) ^ 2",
        ] {
            let e = parse(f).unwrap();
            let prog = e.compile(&c).unwrap();
            for p in 1..20 {
                let a = prog.eval(p as f64, &mut Vec::new());
                let b = e.eval_tree(p as f64, &c);
                assert_eq!(a.to_bits(), b.to_bits(), "{f} at {p}");
            }
        }
    }

    #[test]
    fn constants_fold_into_one_instruction() {
        assert_eq!(compile("alpha * N + 4 ^ 2", &consts()).unwrap().len(), 1);
        assert_eq!(compile("alpha * P", &consts()).unwrap().len(), 3);
    }

    #[test]
    fn errors_name_the_character() {
        let e = compile("N / P + Pp", &consts()).unwrap_err();
        assert_eq!(e.offset, 8);
        assert!(e.message.starts_with("unknown name 'Pp'"), "{e}");
        assert_eq!(parse("1 + ").unwrap_err().offset, 4);
        assert_eq!(parse("(1 + 2").unwrap_err().offset, 6);
        assert_eq!(parse("1 + 2)").unwrap_err().offset, 5);
        assert_eq!(parse("2 3").unwrap_err().offset, 2);
        assert_eq!(parse("foo(1)").unwrap_err().offset, 0);
        assert_eq!(parse("sqrt(1, 2)").unwrap_err().offset, 0);
        assert_eq!(parse("1e").unwrap_err().offset, 1);
        assert_eq!(parse("1 # 2").unwrap_err().offset, 2);
        assert_eq!(parse("  ").unwrap_err().offset, 0);
        assert!(parse(&"(".repeat(1000)).is_err());
        assert!(parse("1e999").is_err());
    }

    #[test]
    fn an_unclosed_parenthesis_states_one_position() {
        for (text, shown) in [
            ("(P + 1", "missing ')' to close '(P + 1' at character 6"),
            ("min(P, 2", "missing ')' to close 'min(P, 2' at character 8"),
            ("(P 1)", "missing ')' to close '(P' at character 3"),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.to_string(), shown);
            assert_eq!(e.to_string().matches("at character").count(), 1, "{e}");
        }
    }
}
