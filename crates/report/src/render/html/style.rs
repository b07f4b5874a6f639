//! The page's stylesheet: one readable column up to 1200 px, tables at full width with
//! figures right-aligned, marks for noisy and drifted figures; narrower screens keep it all.

/// The CSS of `report.html`, inlined in its `<head>` (the font stack is prepended).
pub(super) const STYLE: &str = "\
body{font-size:15px;line-height:1.45;max-width:1200px;margin:0 auto;padding:16px 20px 48px;\
color:#1f1f1f;background:#fff}\n\
h1{font-size:26px;margin:.4em 0 .2em}\n\
h2{font-size:21px;margin:1.6em 0 .5em;padding-bottom:4px;border-bottom:2px solid #e4e4e4}\n\
h3{font-size:17px;margin:1.4em 0 .3em}\n\
a{color:#1f5fa8}\n\
.lede{color:#444;max-width:80ch}\n\
.banner{border:1px solid;border-radius:6px;padding:10px 14px;margin:1em 0}\n\
.banner.warn{background:#fff4e5;border-color:#efb366}\n\
.banner.ok{background:#eef7ee;border-color:#9ccc9c}\n\
.banner ul{margin:.3em 0 0;padding-left:1.3em}\n\
.findings{background:#f5f8fc;border:1px solid #cfdcec;border-radius:6px;padding:2px 16px 10px;margin:1em 0}\n\
.findings h2{border:0;margin:.5em 0 .2em}\n\
.findings ul{padding-left:1.2em;margin:.3em 0}\n\
.findings li{margin:.35em 0}\n\
.findings .numbers{color:#333}\n\
.findings .seed{color:#5a5a5a;font-style:italic}\n\
nav.toc ol{columns:3 15em;column-gap:2em;padding-left:1.4em;margin:.3em 0}\n\
nav.toc li{break-inside:avoid;margin:.15em 0}\n\
nav.toc .metrics{display:block;font-size:13px;color:#555}\n\
.purpose{color:#444;margin:.2em 0 .6em}\n\
.params{color:#4a4a4a;font-size:13px;margin:.1em 0 .4em}\n\
table{border-collapse:collapse;width:100%;margin:.4em 0 1em;font-size:14px}\n\
th,td{border-bottom:1px solid #dedede;padding:5px 8px;vertical-align:top;text-align:left}\n\
th{background:#f1f2f4;font-weight:600;border-bottom:2px solid #c8c8c8}\n\
th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}\n\
td .figure{white-space:nowrap}\n\
.spread{display:block;color:#5f5f5f;font-size:12px}\n\
.spread span{white-space:nowrap}\n\
.mark{display:inline-block;font-size:12px;font-weight:600;padding:0 5px;border-radius:3px;\
margin-left:4px;line-height:1.5}\n\
.mark.noisy{background:#fde7ea;color:#b00020}\n\
.mark.drift{background:#fff0d6;color:#8a4b00}\n\
tr.drifted td{background:#fffaf0}\n\
.unpaired{color:#8a4b00;font-style:italic}\n\
figure{margin:.6em 0 2em}\n\
figure svg{display:block}\n\
.failure{color:#a00}\n\
code{font-size:13px}\n\
@media (max-width:760px){body{padding:8px 10px 32px}table{font-size:13px}\
th,td{padding:4px 5px}}\n";
