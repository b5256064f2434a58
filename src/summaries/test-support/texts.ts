/** Texts the summarizer's tests share: an abstract and a paper-like text made around it. */
export const ABSTRACT = [
  'Graphene membranes filter salt from seawater at low pressure.',
  'Desalination plants spend most of their energy on pumping water through polymer membranes.',
  'We propose a graphene membrane with nanopores drilled by an oxygen plasma.',
  'The membrane rejects ninety-nine percent of salt ions while letting water pass.',
  'Our results show that graphene membranes cut the pumping energy of desalination in half.',
  'The pores stay open after a month of continuous operation.',
  'Fouling by organic matter remains the main obstacle to field use.',
  'We release the fabrication protocol and the measurement data.',
  'Cheaper desalination could bring drinking water to dry coastal regions.',
];

/** A paper-like text: sections on one topic, with citations, figure talk and acknowledgements. */
export function paper(): string {
  const introduction = [
    'Fresh water is scarce in many coastal regions, and desalination of seawater is an answer.',
    'Reverse osmosis pushes seawater through polymer membranes that hold back salt ions.',
    'The pumping energy of reverse osmosis dominates the cost of desalinated water (Smith et al., 2015; Lee, 2018).',
    'Graphene is a single layer of carbon atoms and is the thinnest known membrane material.',
    'Water flows through a thin membrane faster, so a graphene membrane needs less pumping energy.',
    'In this paper, we present a graphene membrane with nanopores that filters salt from seawater.',
  ];
  const methods = [
    'We grew graphene on copper foil and moved it onto a porous support.',
    'An oxygen plasma drilled nanopores of about one nanometre into the graphene layer.',
    'The pore size was set by the plasma exposure time.',
    'Figure 2 shows the measurement cell and Table 1 lists the exposure times.',
    'Salt rejection was measured with a conductivity probe on both sides of the membrane.',
    'Water flux was measured by weighing the permeate every minute.',
  ];
  const results = [
    'The graphene membrane rejected ninety-nine percent of salt ions at a pressure of ten bar.',
    'Water flux through the graphene membrane was three times that of a polymer membrane.',
    'The pumping energy per cubic metre of fresh water fell by half with the graphene membrane.',
    'After a month of continuous operation the nanopores were still open.',
    'Organic matter in natural seawater fouled the membrane surface within two weeks.',
    'Cleaning with a mild acid restored most of the water flux.',
  ];
  const conclusion = [
    'Our results show that nanoporous graphene membranes can halve the energy cost of desalination.',
    'Fouling by organic matter must be solved before graphene membranes reach desalination plants.',
  ];
  return [
    'Nanoporous graphene membranes for energy-efficient desalination',
    'Abstract',
    ABSTRACT.join(' '),
    '1 Introduction',
    introduction.join(' '),
    '2 Methods',
    methods.join(' '),
    '3 Results',
    results.join(' '),
    '4 Conclusion',
    conclusion.join(' '),
    'We thank the technicians of the clean room and acknowledge grant 12345 of the water agency.',
  ].join('\n\n');
}
