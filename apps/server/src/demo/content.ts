/**
 * What the demo's people write (issue 30): the calls, and each proposal's answers and
 * reviews, as data. world.ts writes it through the services; nothing here touches the app.
 * Days are counted from the day the demo is built (negative: before it).
 */

export type CallKey = 'closed' | 'late' | 'review' | 'open';
export type TypeKey = 'compute' | 'instrument';
export type Applicant = 'applicant1' | 'applicant2' | 'applicant3' | 'applicant4' | 'applicant5';
export type Reviewer = 'member1' | 'member2' | 'member3' | 'member4' | 'chair2';

export interface DemoCallSpec {
  key: CallKey;
  name: string;
  /** Days from the build: submission opens, closes; review opens, closes. */
  days: [number, number, number, number];
  description: string;
}

export const COMMITTEE_NAME = 'Northern Lights Research Infrastructure Committee';

export const DEMO_CALLS: Record<CallKey, DemoCallSpec> = {
  closed: {
    key: 'closed',
    name: 'Facility Access Round 12',
    days: [-170, -130, -130, -95],
    description:
      '<p>Time on the Aurora telescope, the Borealis beamline and the cryo-EM microscope, and allocations on the HPC cluster, GPU cloud and research data store, for projects starting in the summer.</p>',
  },
  late: {
    key: 'late',
    name: 'Rapid Access Round 5',
    days: [-60, -30, -30, -3],
    description:
      '<p>Short requests for urgent work: up to 20 instrument hours or 50,000 CPU hours, decided within a month.</p>',
  },
  review: {
    key: 'review',
    name: 'Facility Access Round 13',
    days: [-75, -12, -12, 9],
    description:
      '<p>Instrument time and computing for projects starting in the autumn. Reviews are due by the end of the review period; the committee meets the week after.</p>',
  },
  open: {
    key: 'open',
    name: 'Facility Access Round 14',
    days: [-14, 21, 21, 42],
    description:
      '<p>Apply for time on the Aurora 2.5 m telescope, the Borealis beamline or the cryo-EM microscope, or for computing and storage. Describe the project, its team and what you need; a supporting PDF is welcome.</p><p>Questions go to the committee chairs.</p>',
  },
};

export interface ResourceEntry {
  facility: 'HPC Cluster' | 'GPU Cloud' | 'Research Data Store';
  cpu_hours: number;
  gpu_hours: number;
  storage_tb: number;
  justification?: string;
}

export interface InstrumentEntry {
  instrument: 'Aurora 2.5 m Telescope' | 'Borealis Beamline' | 'Cryo-EM Microscope';
  mode: 'Imaging' | 'Spectroscopy' | 'Diffraction' | 'Tomography';
  hours: number;
  preferred_period?: string;
}

export interface ReviewSpec {
  by: Reviewer;
  /** 'done': both forms; 'partial': the review form only (no scores yet). */
  state: 'done' | 'partial';
  scores?: [number, number, number, number];
  recommendation?: 'Fund' | 'Fund with changes' | 'Do not fund';
  day: number;
}

export interface DemoProposalSpec {
  call: CallKey;
  type: TypeKey;
  author: Applicant;
  name: string;
  summary: string;
  keywords: string[];
  /** Day written (the first save) and, when submitted, submitted too. */
  day: number;
  submitted: boolean;
  collaborators?: Applicant[];
  resources?: ResourceEntry[];
  instruments?: InstrumentEntry[];
  /** A supporting PDF on the project description's file field. */
  pdf?: boolean;
  reviewers?: Reviewer[];
  reviews?: ReviewSpec[];
  /** Closed call: the decision. */
  outcome?: 'approved' | 'partly_approved' | 'waitlisted' | 'declined';
}

export const DEMO_PROPOSALS: readonly DemoProposalSpec[] = [
  // The closed call: every proposal reviewed, decided and told.
  {
    call: 'closed',
    type: 'instrument',
    author: 'applicant1',
    name: 'Auroral substorm spectroscopy',
    summary:
      'High-cadence spectra of the aurora during substorm onsets, to time the arrival of precipitating electrons.',
    keywords: ['aurora', 'spectroscopy', 'space weather'],
    day: -150,
    submitted: true,
    collaborators: ['applicant3'],
    instruments: [{ instrument: 'Aurora 2.5 m Telescope', mode: 'Spectroscopy', hours: 40 }],
    reviewers: ['member1', 'member2'],
    reviews: [
      { by: 'member1', state: 'done', scores: [5, 4, 5, 4], recommendation: 'Fund', day: -110 },
      { by: 'member2', state: 'done', scores: [4, 4, 5, 4], recommendation: 'Fund', day: -105 },
    ],
    outcome: 'approved',
  },
  {
    call: 'closed',
    type: 'instrument',
    author: 'applicant2',
    name: 'Antifreeze protein structures by cryo-EM',
    summary:
      'Structures of three antifreeze proteins from Arctic fish, to see how they bind to ice.',
    keywords: ['structural biology', 'cryo-EM'],
    day: -148,
    submitted: true,
    instruments: [{ instrument: 'Cryo-EM Microscope', mode: 'Imaging', hours: 60 }],
    reviewers: ['member3', 'member4'],
    reviews: [
      {
        by: 'member3',
        state: 'done',
        scores: [4, 4, 4, 3],
        recommendation: 'Fund with changes',
        day: -108,
      },
      { by: 'member4', state: 'done', scores: [4, 3, 4, 4], recommendation: 'Fund', day: -104 },
    ],
    outcome: 'partly_approved',
  },
  {
    call: 'closed',
    type: 'compute',
    author: 'applicant3',
    name: 'Coupled ice-sheet and ocean simulations',
    summary:
      'A coupled model of the Greenland ice sheet and the fjords it drains into, run for three warming scenarios.',
    keywords: ['glaciology', 'ocean modelling', 'HPC'],
    day: -146,
    submitted: true,
    resources: [
      { facility: 'HPC Cluster', cpu_hours: 250000, gpu_hours: 0, storage_tb: 0 },
      { facility: 'Research Data Store', cpu_hours: 0, gpu_hours: 0, storage_tb: 40 },
    ],
    reviewers: ['member1', 'member4'],
    reviews: [
      { by: 'member1', state: 'done', scores: [5, 5, 4, 4], recommendation: 'Fund', day: -112 },
      { by: 'member4', state: 'done', scores: [5, 4, 4, 5], recommendation: 'Fund', day: -100 },
    ],
    outcome: 'approved',
  },
  {
    call: 'closed',
    type: 'compute',
    author: 'applicant4',
    name: 'Machine-learned potentials for battery cathodes',
    summary: 'Training interatomic potentials on DFT data to screen sodium-ion cathode materials.',
    keywords: ['materials', 'machine learning'],
    day: -140,
    submitted: true,
    resources: [{ facility: 'GPU Cloud', cpu_hours: 0, gpu_hours: 12000, storage_tb: 5 }],
    reviewers: ['member1', 'member2'],
    reviews: [
      {
        by: 'member1',
        state: 'done',
        scores: [3, 3, 4, 3],
        recommendation: 'Fund with changes',
        day: -109,
      },
      {
        by: 'member2',
        state: 'done',
        scores: [3, 4, 3, 3],
        recommendation: 'Fund with changes',
        day: -103,
      },
    ],
    outcome: 'waitlisted',
  },
  {
    call: 'closed',
    type: 'instrument',
    author: 'applicant5',
    name: 'Diffraction survey of Arctic sediment cores',
    summary:
      'Mineral phases down three sediment cores, to date the retreat of sea ice over the Holocene.',
    keywords: ['geology', 'diffraction'],
    day: -138,
    submitted: true,
    instruments: [{ instrument: 'Borealis Beamline', mode: 'Diffraction', hours: 36 }],
    reviewers: ['member2', 'member3'],
    reviews: [
      {
        by: 'member2',
        state: 'done',
        scores: [2, 3, 3, 2],
        recommendation: 'Do not fund',
        day: -107,
      },
      {
        by: 'member3',
        state: 'done',
        scores: [3, 2, 3, 2],
        recommendation: 'Do not fund',
        day: -101,
      },
    ],
    outcome: 'declined',
  },

  // The rapid call: its review period ended three days ago and a review is still missing.
  {
    call: 'late',
    type: 'compute',
    author: 'applicant3',
    name: 'Emergency reanalysis of the March storm surge',
    summary:
      'Rerunning the surge model with corrected tide-gauge data before the flood report is due.',
    keywords: ['storm surge', 'HPC'],
    day: -40,
    submitted: true,
    resources: [{ facility: 'HPC Cluster', cpu_hours: 40000, gpu_hours: 0, storage_tb: 2 }],
    reviewers: ['member2', 'member4'],
    reviews: [
      { by: 'member2', state: 'done', scores: [4, 5, 4, 5], recommendation: 'Fund', day: -10 },
    ],
  },
  {
    call: 'late',
    type: 'instrument',
    author: 'applicant5',
    name: 'Rapid imaging of the comet outburst',
    summary:
      'Imaging a comet in outburst while it is bright, to measure how fast its coma expands.',
    keywords: ['comets', 'imaging'],
    day: -38,
    submitted: true,
    instruments: [{ instrument: 'Aurora 2.5 m Telescope', mode: 'Imaging', hours: 12 }],
    reviewers: ['member1'],
    reviews: [],
  },

  // The call in review: assignments made, some reviews done, some begun, some not started.
  {
    call: 'review',
    type: 'instrument',
    author: 'applicant1',
    name: 'Exoplanet atmospheres from transit spectra',
    summary: 'Transmission spectra of two warm Neptunes, looking for water and methane.',
    keywords: ['exoplanets', 'spectroscopy'],
    day: -40,
    submitted: true,
    collaborators: ['applicant3'],
    instruments: [
      {
        instrument: 'Aurora 2.5 m Telescope',
        mode: 'Spectroscopy',
        hours: 30,
        preferred_period: 'September',
      },
      {
        instrument: 'Aurora 2.5 m Telescope',
        mode: 'Imaging',
        hours: 8,
        preferred_period: 'October',
      },
    ],
    reviewers: ['member1', 'member2', 'chair2'],
    reviews: [
      { by: 'member1', state: 'done', scores: [5, 4, 4, 4], recommendation: 'Fund', day: -6 },
      { by: 'chair2', state: 'partial', recommendation: 'Fund with changes', day: -2 },
    ],
  },
  {
    call: 'review',
    type: 'compute',
    author: 'applicant2',
    name: 'Genome assembly of Arctic lichens',
    summary:
      'Long-read assemblies of forty lichen genomes, and the fungal-algal gene exchange between them.',
    keywords: ['genomics', 'HPC', 'lichens'],
    day: -35,
    submitted: true,
    resources: [
      { facility: 'HPC Cluster', cpu_hours: 120000, gpu_hours: 0, storage_tb: 0 },
      { facility: 'Research Data Store', cpu_hours: 0, gpu_hours: 0, storage_tb: 25 },
    ],
    reviewers: ['member1', 'member4'],
    reviews: [
      { by: 'member4', state: 'done', scores: [4, 4, 3, 4], recommendation: 'Fund', day: -4 },
    ],
  },
  {
    call: 'review',
    type: 'instrument',
    author: 'applicant3',
    name: 'Time-resolved diffraction of metal-organic frameworks',
    summary:
      'How three frameworks breathe as they take up CO2, watched at the beamline in seconds.',
    keywords: ['materials', 'diffraction', 'carbon capture'],
    day: -33,
    submitted: true,
    instruments: [
      { instrument: 'Borealis Beamline', mode: 'Diffraction', hours: 48 },
      { instrument: 'Borealis Beamline', mode: 'Tomography', hours: 12 },
    ],
    reviewers: ['member2', 'member3'],
    reviews: [{ by: 'member2', state: 'partial', recommendation: 'Fund', day: -3 }],
  },
  {
    call: 'review',
    type: 'compute',
    author: 'applicant4',
    name: 'Climate downscaling for Nordic hydropower',
    summary: 'Kilometre-scale downscaling of six climate models over Scandinavian catchments.',
    keywords: ['climate', 'hydropower', 'GPU'],
    day: -30,
    submitted: true,
    resources: [
      { facility: 'GPU Cloud', cpu_hours: 0, gpu_hours: 9000, storage_tb: 0 },
      { facility: 'Research Data Store', cpu_hours: 0, gpu_hours: 0, storage_tb: 60 },
    ],
    reviewers: ['member1', 'member4'],
    reviews: [],
  },
  {
    call: 'review',
    type: 'instrument',
    author: 'applicant5',
    name: 'Cryo-EM of ice-binding proteins from snow algae',
    summary:
      'Two ice-binding proteins from snow algae, and how their shape stops ice crystals growing.',
    keywords: ['structural biology', 'cryo-EM'],
    day: -28,
    submitted: true,
    instruments: [{ instrument: 'Cryo-EM Microscope', mode: 'Imaging', hours: 48 }],
    reviewers: ['member3', 'member4'],
    reviews: [
      { by: 'member3', state: 'done', scores: [4, 5, 4, 4], recommendation: 'Fund', day: -5 },
      { by: 'member4', state: 'done', scores: [4, 4, 4, 3], recommendation: 'Fund', day: -1 },
    ],
  },
  {
    call: 'review',
    type: 'compute',
    author: 'applicant2',
    name: 'Sea-ice radar archive reprocessing',
    summary: 'Reprocessing twenty years of sea-ice radar scenes with a common calibration.',
    keywords: ['sea ice', 'remote sensing'],
    day: -20,
    submitted: false,
    resources: [{ facility: 'HPC Cluster', cpu_hours: 60000, gpu_hours: 0, storage_tb: 0 }],
  },

  // The open call: drafts and submitted proposals, a collaborator, PDFs, an extension.
  {
    call: 'open',
    type: 'instrument',
    author: 'applicant1',
    name: 'Auroral kilometric radiation and optical arcs',
    summary:
      'Simultaneous radio and optical observations of auroral arcs, to find where the radiation comes from.',
    keywords: ['aurora', 'radio', 'imaging'],
    day: -6,
    submitted: true,
    collaborators: ['applicant2'],
    instruments: [
      {
        instrument: 'Aurora 2.5 m Telescope',
        mode: 'Imaging',
        hours: 24,
        preferred_period: 'Any dark time, November to February',
      },
      { instrument: 'Aurora 2.5 m Telescope', mode: 'Spectroscopy', hours: 16 },
    ],
    pdf: true,
  },
  {
    call: 'open',
    type: 'compute',
    author: 'applicant2',
    name: 'Deep learning for sea-ice forecasting',
    summary: 'A graph neural network that forecasts sea-ice concentration six weeks ahead.',
    keywords: ['sea ice', 'machine learning', 'GPU'],
    day: -4,
    submitted: false,
    collaborators: ['applicant1'],
    resources: [{ facility: 'GPU Cloud', cpu_hours: 0, gpu_hours: 6000, storage_tb: 0 }],
  },
  {
    call: 'open',
    type: 'instrument',
    author: 'applicant3',
    name: 'In-situ tomography of snow microstructure',
    summary: 'X-ray tomography of snow samples as they metamorphose, at three temperatures.',
    keywords: ['snow', 'tomography'],
    day: -3,
    submitted: false,
    instruments: [{ instrument: 'Borealis Beamline', mode: 'Tomography', hours: 30 }],
    pdf: true,
  },
  {
    call: 'open',
    type: 'compute',
    author: 'applicant4',
    name: 'Permafrost carbon model ensemble',
    summary:
      'A hundred-member ensemble of a permafrost carbon model, to bound the feedback on warming.',
    keywords: ['permafrost', 'climate', 'HPC'],
    day: -2,
    submitted: true,
    resources: [
      { facility: 'HPC Cluster', cpu_hours: 180000, gpu_hours: 0, storage_tb: 0 },
      { facility: 'Research Data Store', cpu_hours: 0, gpu_hours: 0, storage_tb: 15 },
    ],
  },
  {
    call: 'open',
    type: 'instrument',
    author: 'applicant5',
    name: 'Cryo-EM of cold-adapted enzymes',
    summary: 'Structures of two enzymes from Antarctic bacteria that stay active near freezing.',
    keywords: ['enzymes', 'cryo-EM'],
    day: -1,
    submitted: false,
    instruments: [{ instrument: 'Cryo-EM Microscope', mode: 'Imaging', hours: 36 }],
  },
];

/** Who writes each review's words: a few sentences that fit any of the proposals. */
export const REVIEW_TEXT = {
  strengths:
    'A clear question with a realistic plan, and a team that has done this kind of work before.',
  weaknesses:
    'The time requested is not fully justified: say how the amounts were estimated, and what happens if the first run fails.',
  comments:
    'Worth funding if the facility can schedule it in the requested period; a smaller allocation would still answer the main question.',
};

/** The applicant with an extension on the open call, and why. */
export const EXTENSION = {
  applicant: 'applicant5' as Applicant,
  days: [-14, 35] as [number, number],
  reason: 'Parental leave during the call; two more weeks agreed with the chair.',
};
