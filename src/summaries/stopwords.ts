/**
 * Words that carry no topic: English function words, and the filler of academic prose
 * ("paper", "propose", "results", "significant") that every paper repeats whatever it is about.
 * Lower case, compared after lower-casing and apostrophe normalisation.
 */

const ENGLISH_FUNCTION_WORDS = `
a about above across after afterwards again against all almost alone along already also although always am
among amongst an and another any anyhow anyone anything anyway anywhere are aren't around as at back be became
because become becomes becoming been before beforehand behind being below beside besides between beyond both
but by can can't cannot could couldn't did didn't do does doesn't doing don't done down due during each either
else elsewhere enough etc even ever every everyone everything everywhere except few for former formerly from
further had hadn't has hasn't have haven't having he he'd he'll he's hence her here here's hereafter hereby
herein hers herself him himself his how how's however i i'd i'll i'm i've if in indeed into is isn't it it's its
itself just least less let's like likely many may maybe me meanwhile might mine more moreover most mostly much
must mustn't my myself namely neither never nevertheless next no nobody none nonetheless noone nor not nothing
now nowhere of off often on once one ones only onto or other others otherwise ought our ours ourselves out over
own per perhaps quite rather really same seem seemed seeming seems several shall shan't she she'd she'll she's
should shouldn't since so some somehow someone something sometime sometimes somewhat somewhere still such than
that that's the their theirs them themselves then thence there there's thereafter thereby therefore therein
thereof thereupon these they they'd they'll they're they've this those though through throughout thru thus to
together too toward towards under unless until up upon us very via was wasn't we we'd we'll we're we've were
weren't what what's whatever when when's whence whenever where where's whereafter whereas whereby wherein
whereupon wherever whether which while whither who who's whoever whole whom whose why why's will with within
without won't would wouldn't yet you you'd you'll you're you've your yours yourself yourselves
also e.g i.e vs viz cf et al ie eg
zero two three four five six seven eight nine ten first second third fourth fifth last
`;

/** Words every paper uses whatever its topic: they say that something is studied, not what. */
const ACADEMIC_FILLER_WORDS = `
paper papers article articles study studies studied work works present presents presented presenting
propose proposes proposed proposing approach approaches method methods methodology result results
show shows showed shown showing demonstrate demonstrates demonstrated find finds found finding findings
use uses used using usage based new novel different various several many important significant
significantly respectively furthermore additionally moreover however thus therefore hence also well
section sections figure figures fig figs table tables eq eqs equation equations appendix chapter
example examples e.g i.e etc al et ref refs
introduction conclusion conclusions discussion abstract background related future
author authors researcher researchers literature previous previously recent recently prior
given give gives make makes made take takes taken get gets got obtain obtained obtains
provide provides provided describe describes described discuss discusses discussed
consider considers considered report reports reported investigate investigated investigates
including include includes included number numbers large larger small smaller high higher low lower
good better best able order case cases way ways part parts type types kind kinds term terms
set sets value values total overall general generally specific specifically particular particularly
possible potential potentially available existing main mainly key major respectively further first
second one two three also often usually typically thus since within across among via per
al figure table supplementary additional file files
`;

function toSet(...lists: string[]): ReadonlySet<string> {
  const words = new Set<string>();
  for (const list of lists) {
    for (const word of list.split(/\s+/)) {
      if (!word) continue;
      words.add(word);
      // Tokens drop apostrophes, so "don't" is also listed as "dont".
      if (word.includes("'")) words.add(word.replace(/'/g, ''));
    }
  }
  return words;
}

/** English function words only. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = toSet(ENGLISH_FUNCTION_WORDS);

/** English function words plus academic filler: the words that never make a term significant. */
export const STOPWORDS: ReadonlySet<string> = toSet(ENGLISH_FUNCTION_WORDS, ACADEMIC_FILLER_WORDS);
