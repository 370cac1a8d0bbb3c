//! `--report FILE.html`: the figures and a latency chart in one self-contained page.
//!
//! No script and nothing fetched: the chart is inline SVG drawn here, so the file can be
//! attached to an issue or opened offline years later. The chart is the distribution of
//! successful calls' latencies (40 bars from the fastest call to the 99.9th percentile,
//! the slower tail folded into the last bar), with the p50, p90 and p99 marked.

use std::fmt::Write;

use hdrhistogram::Histogram;

const BARS: u64 = 40;
const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 300.0;
const MARGIN: f64 = 50.0;

pub fn html(rows: &[(&str, String)], latency: &Histogram<u64>) -> String {
    let mut table = String::new();
    for (name, value) in rows {
        let _ = writeln!(table, "<tr><th>{}</th><td>{}</td></tr>", escape(name), escape(value));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ferrymcp bench</title>\n<style>\
         body{{font-family:system-ui,sans-serif;margin:2em;color:#222}}\
         table{{border-collapse:collapse}}th,td{{border:1px solid #ccc;padding:4px 10px;text-align:left}}\
         th{{background:#f4f4f4}}</style></head>\n<body>\n<h1>ferrymcp bench</h1>\n\
         <table>\n{table}</table>\n<h2>Latency of successful calls</h2>\n{}\n</body></html>\n",
        chart(latency)
    )
}

fn chart(latency: &Histogram<u64>) -> String {
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"latency distribution\">\n"
    );
    if latency.is_empty() {
        svg += "<text x=\"20\" y=\"40\">no successful call to chart</text>\n</svg>";
        return svg;
    }
    let low = latency.min();
    let high = latency.value_at_quantile(0.999).max(low + BARS);
    let step = (high - low).div_ceil(BARS);
    let mut counts = vec![0u64; BARS as usize];
    for value in latency.iter_recorded() {
        let bar = ((value.value_iterated_to().saturating_sub(low)) / step).min(BARS - 1);
        counts[bar as usize] += value.count_at_value();
    }
    let tallest = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let plot_width = WIDTH - 2.0 * MARGIN;
    let plot_height = HEIGHT - 2.0 * MARGIN;
    let bar_width = plot_width / BARS as f64;
    for (i, count) in counts.iter().enumerate() {
        let height = *count as f64 / tallest * plot_height;
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{height:.1}\" fill=\"#4a7bd0\"><title>{count} calls</title></rect>",
            MARGIN + i as f64 * bar_width,
            HEIGHT - MARGIN - height,
            bar_width - 1.0,
        );
    }
    let x_of = |micros: u64| MARGIN + (micros.saturating_sub(low) as f64 / (step * BARS) as f64).min(1.0) * plot_width;
    for (label, q, colour) in [("p50", 0.5, "#2a2"), ("p90", 0.9, "#d80"), ("p99", 0.99, "#c22")] {
        let value = latency.value_at_quantile(q);
        let x = x_of(value);
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{MARGIN}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-dasharray=\"4 3\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"12\" fill=\"{colour}\" text-anchor=\"middle\">{label} {}</text>",
            HEIGHT - MARGIN,
            MARGIN - 6.0,
            format_ms(value)
        );
    }
    let axis = HEIGHT - MARGIN;
    let _ = writeln!(
        svg,
        "<line x1=\"{MARGIN}\" y1=\"{axis}\" x2=\"{:.1}\" y2=\"{axis}\" stroke=\"#333\"/>\
         <text x=\"{MARGIN}\" y=\"{:.1}\" font-size=\"12\">{}</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{} (p99.9)</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">latency</text>",
        WIDTH - MARGIN,
        axis + 18.0,
        format_ms(low),
        WIDTH - MARGIN,
        axis + 18.0,
        format_ms(high),
        WIDTH / 2.0,
        axis + 36.0,
    );
    svg += "</svg>";
    svg
}

fn format_ms(micros: u64) -> String {
    format!("{:.3} ms", micros as f64 / 1000.0)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_has_the_rows_and_a_chart_and_escapes_text() {
        let mut latency = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        for micros in [100, 120, 130, 400, 5000] {
            latency.record(micros).unwrap();
        }
        let page = html(&[("server", "python <srv>.py".to_owned())], &latency);
        assert!(page.contains("python &lt;srv&gt;.py"));
        assert_eq!(page.matches("<rect").count(), BARS as usize);
        assert!(page.contains("<svg") && page.contains("p99"));
    }
}
