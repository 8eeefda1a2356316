import type { CallProposalExport } from '@merit/contract';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  LinearProgress,
  ListSubheader,
  Menu,
  MenuItem,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { errorMessages, loadCode } from '../../../api/client';
import { ErrorList } from '../../../components/ErrorList';
import { csvBlob } from '../../files/csv';
import { saveBlob } from '../../files/downloads';
import {
  capacityTable,
  EXPORT_KINDS,
  EXPORT_LABELS,
  EXPORT_PARTS,
  exportFileName,
  exportTable,
  rankingTable,
  sheetNames,
  tableCsv,
  tableSheetData,
  workbookSheets,
  type ExportKind,
} from './chair-exports';
import { fetchProposalExport } from './export.api';

export interface ChairExportsProps {
  callId: number;
  callName: string;
  /** The call's proposal types, in its order. */
  types: readonly { typeId: number; typeName: string }[];
  /** Score fields' labels by field name. */
  labels: ReadonlyMap<string, string>;
}

type Request =
  | { kind: ExportKind; typeId: number; format: 'csv' | 'xlsx' }
  | { kind: 'workbook'; format: 'xlsx' };

/** Where a download is: the call's rows on their way, or the file being made from them. */
type Progress = { step: 'fetching' } | { step: 'making'; count: number };

const PROGRESS_TEXT = {
  fetching: () => 'Fetching the proposals of the call…',
  making: (count: number) =>
    `Making the file from ${count} ${count === 1 ? 'proposal' : 'proposals'}…`,
};

/**
 * The chair's downloads (spec section 2): per proposal type a Download CSV Files menu of
 * Score Summary, Comments, Resources and All, each as CSV or XLSX, and one workbook of the
 * whole call. Every file is made here, in the browser, from the rows of its proposal type
 * (every row of the call for the workbook), which one request fetches first (of that
 * type only, with only the parts and columns that file writes); what is under way shows
 * meanwhile. The workbook ends with the decision meeting's Capacity and Ranking sheets
 * (issue 29), from the ranking its export carries.
 */
export function ChairExports({ callId, callName, types, labels }: ChairExportsProps) {
  const [menu, setMenu] = useState<{ anchor: HTMLElement; typeId: number } | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const run = async (request: Request) => {
    setMenu(null);
    setBusy(true);
    setError(null);
    setProgress({ step: 'fetching' });
    try {
      const all = await fetchProposalExport(callId, {
        ...EXPORT_PARTS[request.kind],
        type: request.kind === 'workbook' ? undefined : request.typeId,
      });
      setProgress({ step: 'making', count: all.items.length });
      const [blob, name] = await build(request, all);
      saveBlob(blob, name);
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const build = async (request: Request, all: CallProposalExport): Promise<[Blob, string]> => {
    const created = new Date();
    // A type's download was sent that type's rows only; the workbook, every type's
    // (all of them for its Ranking sheet).
    const sourceOf = (typeId: number | undefined) => ({
      rows:
        typeId === undefined ? all.items : all.items.filter((row) => row.proposalTypeId === typeId),
      facilities: all.facilities,
      labels,
      outcomeLabels: all.outcomeLabels,
      resourceTitles: all.resourceTitles,
    });
    // The XLSX writer is its own chunk, loaded the first time a chair asks for one.
    const xlsx = () => loadCode(() => import('./xlsx-writer'));
    if (request.kind === 'workbook') {
      // After the types' sheets, the decision meeting's: the capacities and the ranking.
      const { ranking } = all;
      const meeting = ranking
        ? [
            { name: 'Capacity', table: capacityTable(ranking, all.resourceTitles) },
            { name: 'Ranking', table: rankingTable(ranking, sourceOf(undefined)) },
          ]
        : [];
      // Per type its Reviews (a row per review) and its Resources (a row per proposal).
      const tables = [
        ...types.flatMap((type) => workbookSheets(type.typeName, sourceOf(type.typeId))),
        ...meeting,
      ];
      const names = sheetNames(tables.map((sheet) => sheet.name));
      const { xlsxBlob } = await xlsx();
      const blob = await xlsxBlob({
        title: callName,
        created,
        sheets: tables.map((sheet, i) => ({
          name: names[i]!,
          data: tableSheetData(sheet.table),
          filter: true,
        })),
      });
      return [blob, exportFileName(callName, { kind: 'workbook' }, 'xlsx')];
    }
    const table = exportTable(request.kind, sourceOf(request.typeId));
    const typeName = types.find((type) => type.typeId === request.typeId)?.typeName ?? '';
    const name = exportFileName(callName, { kind: request.kind, typeName }, request.format);
    if (request.format === 'csv') return [csvBlob(tableCsv(table)), name];
    const { xlsxBlob } = await xlsx();
    const blob = await xlsxBlob({
      title: callName,
      created,
      sheets: [{ name: sheetNames([typeName])[0]!, data: tableSheetData(table) }],
    });
    return [blob, name];
  };

  return (
    <Box component="section" aria-labelledby="downloads-heading" sx={{ mb: 2 }}>
      <Typography id="downloads-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        Downloads
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        {types.map((type) => (
          <Button
            key={type.typeId}
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={busy}
            aria-haspopup="menu"
            aria-label={`Download CSV Files: ${type.typeName}`}
            onClick={(event) => setMenu({ anchor: event.currentTarget, typeId: type.typeId })}
          >
            Download CSV Files{types.length > 1 ? `: ${type.typeName}` : ''}
          </Button>
        ))}
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={busy || types.length === 0}
          onClick={() => void run({ kind: 'workbook', format: 'xlsx' })}
        >
          Whole-Call Workbook (XLSX)
        </Button>
      </Stack>
      <Menu
        anchorEl={menu?.anchor}
        open={menu !== null}
        onClose={() => setMenu(null)}
        slotProps={{ list: { 'aria-label': 'Downloads' } }}
      >
        {(['csv', 'xlsx'] as const).flatMap((format) => [
          <ListSubheader key={format}>{format.toUpperCase()}</ListSubheader>,
          ...EXPORT_KINDS.map((kind) => (
            <MenuItem
              key={`${kind}-${format}`}
              onClick={() => menu && void run({ kind, typeId: menu.typeId, format })}
            >
              {`${EXPORT_LABELS[kind]} (${format.toUpperCase()})`}
            </MenuItem>
          )),
        ])}
      </Menu>
      {progress && (
        <Box sx={{ mt: 1 }} role="status">
          <Typography variant="body2" color="text.secondary">
            {progress.step === 'fetching'
              ? PROGRESS_TEXT.fetching()
              : PROGRESS_TEXT.making(progress.count)}
          </Typography>
          <LinearProgress aria-label="Preparing the download" />
        </Box>
      )}
      {error !== null && (
        <Box sx={{ mt: 1 }}>
          <ErrorList messages={errorMessages(error)} />
        </Box>
      )}
    </Box>
  );
}
