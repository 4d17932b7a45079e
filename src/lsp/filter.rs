//! A filter between stdin and the protocol library: every message reaching
//! `tower-lsp-server` is a well-formed JSON-RPC 2.0 object, since the library stops serving at
//! the first malformed one. A malformed message is answered here as the JSON-RPC 2.0
//! specification prescribes (-32700 Parse error for invalid JSON, -32600 Invalid Request for
//! a valid JSON value that is not a request, notification or response; one answer per
//! element of a batch) and the server goes on.
//!
//! Both writers share stdout through [`SharedStdout`], which writes whole buffers under a
//! lock, so frames never interleave.

use serde_json::{json, Value};
use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

/// Largest message accepted; a larger one is skipped and answered with an error.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;
/// Longest header line.
const MAX_HEADER_LINE: usize = 8 * 1024;

/// Stdout shared by the protocol library and the filter.
pub struct SharedStdout<W: Write + Send = std::io::Stdout> {
    out: Arc<Mutex<W>>,
}

impl<W: Write + Send> Clone for SharedStdout<W> {
    fn clone(&self) -> Self {
        SharedStdout {
            out: self.out.clone(),
        }
    }
}

impl SharedStdout {
    pub fn stdout() -> SharedStdout {
        SharedStdout::new(std::io::stdout())
    }
}

impl<W: Write + Send> SharedStdout<W> {
    pub fn new(w: W) -> SharedStdout<W> {
        SharedStdout {
            out: Arc::new(Mutex::new(w)),
        }
    }

    fn write_frame(&self, body: &[u8]) -> std::io::Result<()> {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(body);
        out.write_all(&frame)?;
        out.flush()
    }
}

impl<W: Write + Send> AsyncWrite for SharedStdout<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        Poll::Ready(out.write_all(buf).map(|_| buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        Poll::Ready(out.flush())
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.poll_flush(cx)
    }
}

/// What to do with one message body.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Well-formed: hand it to the protocol library.
    Forward,
    /// Malformed: write this answer (if any) and drop the message.
    Answer(Option<Value>),
}

fn error(code: i64, message: &str, id: Value) -> Value {
    json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": id})
}

/// The id of a message if it has a valid one (number, string or null).
fn valid_id(m: &serde_json::Map<String, Value>) -> Option<Value> {
    match m.get("id") {
        Some(v @ (Value::Number(_) | Value::String(_) | Value::Null)) => Some(v.clone()),
        _ => None,
    }
}

/// Whether a JSON value is a well-formed JSON-RPC 2.0 request, notification or response;
/// otherwise the error answer (`None` for an invalid notification-like message with no id).
fn check_message(v: &Value) -> Result<(), Value> {
    let invalid = |id: Value| error(-32600, "Invalid Request", id);
    let Value::Object(m) = v else {
        return Err(invalid(Value::Null));
    };
    let id = valid_id(m);
    if m.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return Err(invalid(id.unwrap_or(Value::Null)));
    }
    if m.contains_key("id") && id.is_none() {
        return Err(invalid(Value::Null));
    }
    match m.get("method") {
        Some(Value::String(_)) => match m.get("params") {
            // `null` is not structured, but clients send it (`shutdown`, `exit`).
            None | Some(Value::Object(_)) | Some(Value::Array(_)) | Some(Value::Null) => Ok(()),
            Some(_) => Err(invalid(id.unwrap_or(Value::Null))),
        },
        Some(_) => Err(invalid(id.unwrap_or(Value::Null))),
        // A response to one of the server's requests.
        None if id.is_some() && (m.contains_key("result") || m.contains_key("error")) => Ok(()),
        None => Err(invalid(id.unwrap_or(Value::Null))),
    }
}

/// Judges one message body.
pub fn judge(body: &[u8]) -> Verdict {
    let v: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(_) => return Verdict::Answer(Some(error(-32700, "Parse error", Value::Null))),
    };
    match &v {
        Value::Array(items) if items.is_empty() => {
            Verdict::Answer(Some(error(-32600, "Invalid Request", Value::Null)))
        }
        // The Language Server Protocol has no batches: each element is answered with an
        // error (elements without an id are notifications and get none).
        Value::Array(items) => {
            let answers: Vec<Value> = items
                .iter()
                .filter_map(|item| match item {
                    Value::Object(m) if !m.contains_key("id") && check_message(item).is_ok() => {
                        None
                    }
                    Value::Object(m) => Some(error(
                        -32600,
                        "Invalid Request: batches are not supported",
                        valid_id(m).unwrap_or(Value::Null),
                    )),
                    _ => Some(error(-32600, "Invalid Request", Value::Null)),
                })
                .collect();
            Verdict::Answer((!answers.is_empty()).then_some(Value::Array(answers)))
        }
        _ => match check_message(&v) {
            Ok(()) => Verdict::Forward,
            Err(answer) => {
                // A malformed notification (no id) gets no answer... unless it is not even
                // an object, or its id is invalid: the spec answers those with id null.
                let notification = matches!(&v, Value::Object(m) if !m.contains_key("id") && m.get("method").is_some_and(|x| x.is_string()));
                Verdict::Answer((!notification).then_some(answer))
            }
        },
    }
}

/// Copies framed messages from `input` to `server`, answering malformed ones on `out`. Ends
/// at the end of `input` (or when the server side is gone).
pub async fn run<R, S, W>(input: R, mut server: S, out: SharedStdout<W>)
where
    R: AsyncRead + Unpin,
    S: AsyncWrite + Unpin,
    W: Write + Send,
{
    let mut input = BufReader::new(input);
    loop {
        // Headers.
        let mut length: Option<usize> = None;
        let mut bad_header = false;
        let mut saw_any = false;
        loop {
            let mut line = Vec::new();
            let n = match (&mut input)
                .take(MAX_HEADER_LINE as u64)
                .read_until(b'\n', &mut line)
                .await
            {
                Ok(n) => n,
                Err(_) => return,
            };
            if n == 0 {
                return;
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                if saw_any {
                    break;
                }
                continue;
            }
            saw_any = true;
            match text.split_once(':') {
                Some((k, v)) if k.trim().eq_ignore_ascii_case("content-length") => {
                    match v.trim().parse::<usize>() {
                        Ok(l) => length = Some(l),
                        Err(_) => bad_header = true,
                    }
                }
                Some(_) => {}
                None => bad_header = true,
            }
        }
        let Some(length) = length.filter(|_| !bad_header) else {
            // No usable length: the message cannot be delimited. Say so and resynchronise
            // on the next header block.
            let _ = out.write_frame(
                error(
                    -32700,
                    "Parse error: missing or invalid Content-Length",
                    Value::Null,
                )
                .to_string()
                .as_bytes(),
            );
            continue;
        };
        if length > MAX_MESSAGE_BYTES {
            let mut skip = (&mut input).take(length as u64);
            if tokio::io::copy(&mut skip, &mut tokio::io::sink())
                .await
                .is_err()
            {
                return;
            }
            let _ = out.write_frame(
                error(-32600, "Invalid Request: message too large", Value::Null)
                    .to_string()
                    .as_bytes(),
            );
            continue;
        }
        let mut body = vec![0u8; length];
        if input.read_exact(&mut body).await.is_err() {
            return;
        }
        match judge(&body) {
            Verdict::Forward => {
                let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
                frame.extend_from_slice(&body);
                if server.write_all(&frame).await.is_err() || server.flush().await.is_err() {
                    return;
                }
            }
            Verdict::Answer(Some(answer)) => {
                let _ = out.write_frame(answer.to_string().as_bytes());
            }
            Verdict::Answer(None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_messages_as_the_spec_says() {
        let code = |b: &str| match judge(b.as_bytes()) {
            Verdict::Forward => 0,
            Verdict::Answer(Some(a)) => a["error"]["code"]
                .as_i64()
                .unwrap_or_else(|| a[0]["error"]["code"].as_i64().unwrap()),
            Verdict::Answer(None) => 1,
        };
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"method":"x"}"#), 0);
        assert_eq!(code(r#"{"jsonrpc":"2.0","method":"x"}"#), 0);
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"result":null}"#), 0);
        assert_eq!(code("{not json"), -32700);
        assert_eq!(code("[]"), -32600);
        assert_eq!(code(r#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#), -32600);
        assert_eq!(code(r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#), -32600);
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#), -32600);
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"method":5}"#), -32600);
        assert_eq!(code("42"), -32600);
        assert_eq!(code(r#"{"jsonrpc":"2.0","method":"x","params":3}"#), 1);
    }
}
