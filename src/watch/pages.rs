//! The watcher's pages: the index and a run's page, rendered with every
//! text from a run escaped (maud), and the files they load (`/static/`,
//! compiled into the binary). The pages hold no inline script or style:
//! every response forbids them (`Content-Security-Policy: default-src
//! 'self'`), and the page's script fills in figures with `textContent`.

use super::board::{Row, RunView};
use maud::{html, Markup, PreEscaped, DOCTYPE};

/// The page's script.
pub const SCRIPT: &str = include_str!("static/watch.js");

/// The watcher's own CSS.
pub const STYLE: &str = include_str!("static/watch.css");

/// A file under `/static/` by its name, with its content type.
pub fn static_file(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "watch.js" => Some(("text/javascript; charset=utf-8", SCRIPT)),
        "watch.css" => Some(("text/css; charset=utf-8", STYLE)),
        "report.css" => Some(("text/css; charset=utf-8", crate::report::html::CSS)),
        _ => None,
    }
}

fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            link rel="stylesheet" href="/static/report.css";
            link rel="stylesheet" href="/static/watch.css";
            script src="/static/watch.js" defer {}
        }
    }
}

/// The link to a run's page: each part of its name percent-encoded.
pub fn run_href(name: &str) -> String {
    let mut href = String::from("/run/");
    for part in name.split('/') {
        for b in part.bytes() {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                href.push(char::from(b));
            } else {
                href.push_str(&format!("%{b:02X}"));
            }
        }
        href.push('/');
    }
    href
}

fn rate(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_string(), |r| format!("{r:.1}"))
}

/// The index: one row per run, newest activity first.
pub fn index(rows: &[Row]) -> String {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            (head("arena watch"))
            body id="index" {
                header { h1 { "arena watch" } p { "Every run under the watched folder, newest activity first; updated every second." } }
                main {
                    table id="runs" {
                        thead { tr { th { "run" } th { "kind" } th { "state" } th class="num" { "games" } th class="num" { "games/min" } th { "verdict or figures" } th { "last game" } } }
                        tbody {
                            @for r in rows {
                                tr {
                                    td { a href=(run_href(&r.name)) { (r.name) } }
                                    td { (r.kind) } td { (r.state) } td class="num" { (r.games) }
                                    td class="num" { (rate(r.games_a_minute)) } td { (r.figures) }
                                    td class="time" data-unix=(r.last_game.unwrap_or(0)) { "–" }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    page.into_string()
}

/// A run's page: the live figures (filled in by the script from
/// `live.json`), then the report's sections (`figures.html`, redrawn in
/// place as games come).
pub fn run_page(name: &str, view: &RunView) -> String {
    let r = &view.row;
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("{name} — arena watch")))
            body id="run" {
                header {
                    p { a href="/" { "all runs" } }
                    h1 { (name) }
                    dl id="live" {
                        dt { "kind" } dd id="kind" { (r.kind) }
                        dt { "state" } dd id="state" { (r.state) }
                        dt { "games" } dd id="games" { "…" }
                        dt { "games a minute" } dd id="rate" { "…" }
                        dt { "pairs left" } dd id="left" { "…" }
                        dt { "verdict or figures" } dd id="figures-line" { (r.figures) }
                        dt { "LLR" } dd id="llr" { "–" }
                        dt { "last game" } dd id="last-game" { "–" }
                        dt { "updates" } dd id="updates" data-first-games="" { "0" }
                    }
                    p id="problem" {}
                }
                section id="tune-live" hidden {
                    h2 { "Tune: θ now, and the next iteration's gains" }
                    table { thead { tr { th { "parameter" } th class="num" { "start" } th class="num" { "θ" } th class="num" { "min" } th class="num" { "max" } th class="num" { "c_k" } th class="num" { "a_k" } } } tbody id="theta" {} }
                }
                section id="workers-live" hidden {
                    h2 { "Workers" }
                    table { thead { tr { th { "worker" } th { "host" } th class="num" { "pid" } th class="num" { "games" } th class="num" { "heartbeat" } th { "state" } } } tbody id="workers" {} }
                }
                main id="figures" { (PreEscaped(&view.figures)) }
                section {
                    h2 { "Last games" }
                    table { thead { tr { th class="num" { "game" } th { "black" } th { "white" } th class="num" { "result" } th { "how it ended" } } } tbody id="last-games" {} }
                }
            }
        }
    };
    page.into_string()
}
