//! The style sheet of `report.html`: one column that narrows to a phone's
//! width (figures scale, wide tables scroll), verdict colours, and a print
//! layout that keeps figures whole and their colours.

/// The CSS, inlined into the page.
pub const CSS: &str = "
:root { --good: #1a7f37; --bad: #c62828; --undecided: #8a6d00; --ink: #222; --muted: #555; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 0 auto;
  max-width: 60rem; padding: 1rem 1.25rem 2rem; color: var(--ink); line-height: 1.45; background: #fff; }
header { border-bottom: 2px solid #ddd; padding-bottom: 0.75rem; }
h1 { font-size: 1.6rem; margin: 0.2rem 0 0.4rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2rem 0 0.5rem; border-bottom: 1px solid #eee; padding-bottom: 0.2rem; }
p { margin: 0.4rem 0; }
code { overflow-wrap: anywhere; }
.meta, figcaption, .note { color: var(--muted); font-size: 0.9rem; }
.verdict { display: inline-block; padding: 0.15rem 0.6rem; border-radius: 0.3rem; font-weight: bold;
  color: #fff; background: #555; }
.verdict.h1 { background: var(--good); } .verdict.h0 { background: var(--bad); }
.verdict.undecided { background: var(--undecided); }
.verdict.stopped, .verdict.partial { background: #6a4c93; }
.headline { font-size: 1.15rem; margin: 0.5rem 0; }
.elo { font-weight: bold; white-space: nowrap; }
.good { color: var(--good); } .bad { color: var(--bad); }
figure { margin: 1rem 0 1.5rem; }
svg.plot { display: block; width: 100%; height: auto; }
.narrow { display: none; }
.error { color: var(--bad); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.9rem; width: 100%; }
caption { text-align: left; color: var(--muted); font-size: 0.9rem; padding-bottom: 0.3rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.45rem; text-align: left; vertical-align: top; }
th { background: #f6f6f6; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.moves { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
tr.book-problem td { background: #fff4e5; }
pre { overflow-x: auto; background: #f6f8fa; padding: 0.5rem 0.75rem; font-size: 0.85rem; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: 0.8rem; }
@media (max-width: 40rem) {
  body { padding: 0.5rem 0.6rem 1.5rem; }
  h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; }
  table { font-size: 0.8rem; } th, td { padding: 0.2rem 0.3rem; }
  .wide { display: none; } .narrow { display: block; }
}
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  section, figure, table { break-inside: avoid; }
  h2 { break-after: avoid; }
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  .scroll { overflow: visible; }
  .wide { display: block !important; } .narrow { display: none !important; }
}
";
