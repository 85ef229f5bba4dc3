//! Shared by the GUI tests: the `punct-gui` binary as a child process, a tiny HTTP/1.1 client
//! over `TcpStream`, and a minimal W3C WebDriver client for chromedriver.
#![allow(dead_code)]

pub mod transcript;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub const GUI: &str = env!("CARGO_BIN_EXE_punct-gui");
pub const MOCK: &str = env!("CARGO_BIN_EXE_punct-mock-engine");
pub const PUNCT: &str = env!("CARGO_BIN_EXE_punct");

/// A running `punct-gui`; killed on drop (its engines die with it: PR_SET_PDEATHSIG).
pub struct Gui {
    child: Child,
    pub port: u16,
}

impl Gui {
    /// Starts `punct-gui` (the one of this build, or the program named by `PUNCT_GUI_EXE`, to
    /// run the API tests against an older build).
    pub fn start(args: &[&str]) -> Gui {
        let exe = std::env::var("PUNCT_GUI_EXE").unwrap_or_else(|_| GUI.to_string());
        let mut child = Command::new(exe)
            .args(["--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("punct-gui starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the first line");
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in '{line}'"));
        Gui { child, port }
    }

    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// One request with this server's Host header, then `headers`.
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let host = self.host();
        let mut all = vec![("Host", host.as_str())];
        all.extend_from_slice(headers);
        http(self.port, method, path, &all, body)
    }

    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, &[], "")
    }

    /// A POST of `body` as it stands (JSON or not), labelled JSON.
    pub fn post_text(&self, path: &str, body: &str) -> Reply {
        self.request("POST", path, &[("Content-Type", "application/json")], body)
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_text(path, &body.to_string())
    }

    /// A connection to the event stream, its request sent; reads time out after 200 ms.
    pub fn open_events(&self) -> TcpStream {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        write!(
            s,
            "GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.host()
        )
        .unwrap();
        s
    }

    pub fn state(&self) -> Value {
        self.get("/api/state").json()
    }

    /// Polls the state until `pred` holds; panics after `within`.
    pub fn wait_state(&self, within: Duration, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let end = Instant::now() + within;
        loop {
            let s = self.state();
            if pred(&s) {
                return s;
            }
            if Instant::now() > end {
                panic!(
                    "timed out waiting for {what}; state: cursor {} moves {} engines {} message {}",
                    s["cursor"], s["moves"], s["engines"], s["message"]
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// Reads events from an [`open_events`](Gui::open_events) stream until `pred` takes one;
/// returns its data.
pub fn read_events_until(
    s: &mut TcpStream,
    within: Duration,
    pred: impl Fn(&str, &Value) -> bool,
) -> Value {
    let end = Instant::now() + within;
    let mut buf = String::new();
    let mut chunk = [0u8; 65536];
    loop {
        assert!(
            Instant::now() < end,
            "no matching event; got {}",
            &buf[..buf.len().min(300)]
        );
        if let Ok(n) = s.read(&mut chunk) {
            assert!(n > 0, "stream closed");
            buf.push_str(&String::from_utf8_lossy(&chunk[..n]));
        }
        while let Some(i) = buf.find("\n\n") {
            let frame: String = buf.drain(..i + 2).collect();
            let ev = frame
                .lines()
                .find_map(|l| l.strip_prefix("event: "))
                .unwrap_or("");
            let data = frame.lines().find_map(|l| l.strip_prefix("data: "));
            if let Some(d) = data.and_then(|d| serde_json::from_str::<Value>(d).ok()) {
                if pred(ev, &d) {
                    return d;
                }
            }
        }
    }
}

/// One request on a fresh connection; the answer read to its end.
pub fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let has_length = headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("Content-Length"));
    if !has_length && (method == "POST" || !body.is_empty()) {
        req.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    req.push_str("\r\n");
    req.push_str(body);
    // The server may answer (and close) before reading all of it.
    let _ = s.write_all(req.as_bytes());
    // Read to the end of the body as Content-Length gives it (a server may keep the
    // connection open), else to the end of the stream.
    let mut raw = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            let len = head.lines().find_map(|l| {
                l.strip_prefix("content-length:")
                    .and_then(|v| v.trim().parse::<usize>().ok())
            });
            if len.is_some_and(|n| raw.len() >= split + 4 + n) {
                break;
            }
        }
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
        }
    }
    parse_reply(&raw)
}

fn parse_reply(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let mut body = raw[split + 4..].to_vec();
    let chunked = head
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("transfer-encoding:") && l.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Reply { status, head, body }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 2 + size + 2..];
    }
    out
}

/// A free TCP port (bound then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

// ----- WebDriver -----

pub fn which(program: &str) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    path.split(':')
        .map(|d| format!("{d}/{program}"))
        .find(|p| std::path::Path::new(p).is_file())
}

/// chromedriver with one headless Chromium session.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: TempDir,
}

pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// A fresh, empty directory `NAME-PID` under the system's temporary directory.
    pub fn fresh(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Browser {
    pub fn start(chromium: &str, chromedriver: &str) -> Browser {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                let r = http(port, "GET", "/status", &[("Host", "127.0.0.1")], "");
                if r.status == 200 && r.json()["value"]["ready"] == true {
                    break;
                }
            }
            assert!(Instant::now() < end, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let profile =
            std::env::temp_dir().join(format!("punct-gui-chromium-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1300,950",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "pageLoadStrategy": "eager",
            "timeouts": {"pageLoad": 20000, "script": 20000},
            "goog:chromeOptions": {"binary": chromium, "args": args}
        }}});
        let mut b = Browser {
            driver,
            port,
            session: String::new(),
            _profile: TempDir(profile),
        };
        let v = b.call("POST", "/session", &caps);
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        b
    }

    /// A WebDriver call; returns `value` of the answer, panicking on an error answer.
    pub fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|(status, v)| panic!("WebDriver {method} {path}: {status} {v}"))
    }

    /// Finds `css` and acts on it, again while the page replaces the element under the call
    /// (the board and the analysis table are redrawn as engine lines and states arrive).
    pub fn on_fresh(&self, css: &str, act: impl Fn(&Self, &str) -> Result<Value, (u16, Value)>) {
        for _ in 0..20 {
            let element = self.find(css);
            match act(self, &element) {
                Ok(_) => return,
                Err((_, v)) if v.to_string().contains("stale element") => {
                    std::thread::sleep(std::time::Duration::from_millis(25))
                }
                Err((status, v)) => panic!("WebDriver action on {css}: {status} {v}"),
            }
        }
        panic!("{css}: the element went stale 20 times");
    }

    /// Moves the mouse onto the element `css` finds (retrying a stale one).
    pub fn hover_css(&self, css: &str) {
        self.on_fresh(css, |b, e| b.pointer(e, false));
    }

    /// Moves the mouse onto the element `css` finds and clicks there (retrying a stale one).
    pub fn hover_click_css(&self, css: &str) {
        self.on_fresh(css, |b, e| b.pointer(e, true));
    }

    fn pointer(&self, element: &str, click: bool) -> Result<Value, (u16, Value)> {
        let origin = json!({"element-6066-11e4-a52e-4f735466cecf": element});
        let mut actions =
            vec![json!({"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0})];
        if click {
            actions.push(json!({"type": "pointerDown", "button": 0}));
            actions.push(json!({"type": "pointerUp", "button": 0}));
        }
        self.try_call(
            "POST",
            &self.s("/actions"),
            &json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": actions}]}),
        )
    }

    /// A WebDriver call: `value` of the answer, or the status and answer of an error.
    pub fn try_call(&self, method: &str, path: &str, body: &Value) -> Result<Value, (u16, Value)> {
        if std::env::var("GUI_TEST_TRACE").is_ok() {
            eprintln!("webdriver {method} {path}");
        }
        let body = if method == "POST" {
            body.to_string()
        } else {
            String::new()
        };
        let r = http(
            self.port,
            method,
            path,
            &[("Host", "127.0.0.1"), ("Content-Type", "application/json")],
            &body,
        );
        let v = r.json();
        if r.status != 200 {
            return Err((r.status, v));
        }
        Ok(v["value"].clone())
    }

    pub fn session(&self) -> &str {
        &self.session
    }

    fn s(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    pub fn navigate(&self, url: &str) {
        self.call("POST", &self.s("/url"), &json!({ "url": url }));
    }

    pub fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            &self.s("/element"),
            &json!({"using": "css selector", "value": css}),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    pub fn click(&self, element: &str) {
        self.call(
            "POST",
            &self.s(&format!("/element/{element}/click")),
            &json!({}),
        );
    }

    pub fn clear_and_type(&self, element: &str, text: &str) {
        self.call(
            "POST",
            &self.s(&format!("/element/{element}/clear")),
            &json!({}),
        );
        self.call(
            "POST",
            &self.s(&format!("/element/{element}/value")),
            &json!({ "text": text }),
        );
    }

    pub fn key(&self, key: &str) {
        self.call(
            "POST",
            &self.s("/actions"),
            &json!({"actions": [{"type": "key", "id": "kbd",
                "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]}),
        );
    }

    /// Sets the browser window's size (CSS pixels of the outer window).
    pub fn set_window(&self, width: u32, height: u32) {
        self.call(
            "POST",
            &self.s("/window/rect"),
            &json!({"width": width, "height": height}),
        );
    }

    /// Chromium's network emulation: every new request of the page waits `latency_ms` more.
    pub fn network_latency(&self, latency_ms: u64) {
        self.call(
            "POST",
            &self.s("/chromium/network_conditions"),
            &json!({"network_conditions": {"offline": false, "latency": latency_ms,
                "download_throughput": 50_000_000, "upload_throughput": 50_000_000}}),
        );
    }

    /// A tap with a finger (touch pointer) on the element `css` finds.
    pub fn tap_css(&self, css: &str) {
        self.on_fresh(css, |b, e| {
            let origin = json!({"element-6066-11e4-a52e-4f735466cecf": e});
            b.try_call(
                "POST",
                &b.s("/actions"),
                &json!({"actions": [{"type": "pointer", "id": "finger",
                    "parameters": {"pointerType": "touch"},
                    "actions": [
                        {"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pause", "duration": 30},
                        {"type": "pointerUp", "button": 0}]}]}),
            )
        });
        // With a dialog open, chromedriver would answer the call by dismissing it.
        if self.dialog_text().is_none() {
            let _ = self.try_call("DELETE", &self.s("/actions"), &json!({}));
        }
    }

    /// Accepts the page's `confirm` dialog, waiting up to 5 s for it.
    pub fn accept_dialog(&self) {
        let end = Instant::now() + Duration::from_secs(5);
        while self
            .try_call("POST", &self.s("/alert/accept"), &json!({}))
            .is_err()
        {
            assert!(Instant::now() < end, "no dialog to accept");
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// The text of the page's open `confirm` dialog, if one is open.
    pub fn dialog_text(&self) -> Option<String> {
        self.try_call("GET", &self.s("/alert/text"), &json!({}))
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
    }

    /// Waits up to `within` for a dialog; its text.
    pub fn wait_dialog(&self, within: Duration) -> Option<String> {
        let end = Instant::now() + within;
        loop {
            if let Some(t) = self.dialog_text() {
                return Some(t);
            }
            if Instant::now() > end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Answers the open dialog with Cancel.
    pub fn dismiss_dialog(&self) {
        self.call("POST", &self.s("/alert/dismiss"), &json!({}));
    }

    /// A double click with the mouse on the element `css` finds.
    pub fn double_click_css(&self, css: &str) {
        self.on_fresh(css, |b, e| {
            let origin = json!({"element-6066-11e4-a52e-4f735466cecf": e});
            b.try_call(
                "POST",
                &b.s("/actions"),
                &json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                    "actions": [
                        {"type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]}),
            )
        });
    }

    /// Types `text` into an element (e.g. a file name into a file input).
    pub fn send_keys(&self, element: &str, text: &str) {
        self.call(
            "POST",
            &self.s(&format!("/element/{element}/value")),
            &json!({ "text": text }),
        );
    }

    pub fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            &self.s("/execute/sync"),
            &json!({"script": script, "args": []}),
        )
    }

    /// Polls a script until it returns something truthy.
    pub fn wait_js(&self, script: &str, within: Duration, what: &str) -> Value {
        let end = Instant::now() + within;
        loop {
            let v = self.js(script);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            assert!(Instant::now() < end, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    pub fn screenshot(&self, path: &std::path::Path) {
        let v = self.call("GET", &self.s("/screenshot"), &json!({}));
        let png = base64_decode(v.as_str().expect("base64 PNG"));
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(path, png).expect("write the screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                &[("Host", "127.0.0.1")],
                "",
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

pub fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("UMOcTkNU"), "PÜNCT".as_bytes());
}
