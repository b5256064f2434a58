/** parse-prometheus-text-format ships no types: it returns the families it read (test/support/prometheus-text.ts). */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
