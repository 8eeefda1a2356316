import { Box, Tab, Tabs } from '@mui/material';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

interface TabChoice<V extends string> {
  value: V;
  /** Text, or text with marks (an icon with words for screen readers beside it). */
  label: ReactNode;
}

interface SearchParamTabsProps<V extends string> {
  /** Names the tab list for screen readers. */
  label: string;
  /** The first tab is the default, which leaves the address without `?tab=`. */
  tabs: readonly TabChoice<V>[];
  children: (tab: V) => ReactNode;
}

/**
 * The tab the address names (`?tab=`), or the first, and a way to show another: for a
 * page that chooses the tab itself as well (the proposal editor shows the form a save
 * failed on).
 */
export function useSearchParamTab<V extends string>(tabs: readonly TabChoice<V>[]) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = tabs.find((candidate) => candidate.value === requested)?.value ?? tabs[0]!.value;
  const setTab = (value: V) =>
    setParams(value === tabs[0]!.value ? {} : { tab: value }, { replace: true });
  return [tab, setTab] as const;
}

/**
 * Tabs whose choice lives in the address (`?tab=`), so a reload, a shared link or Back
 * from a page opened from a tab shows the same tab. Tabs that do not fit the width scroll.
 */
export function SearchParamTabs<V extends string>({
  label,
  tabs,
  children,
}: SearchParamTabsProps<V>) {
  const [tab, setTab] = useSearchParamTab(tabs);
  const idOf = (value: string) => `tab-${value}`;
  return (
    <>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_event, value: V) => setTab(value)}
          aria-label={label}
          variant="scrollable"
          scrollButtons="auto"
        >
          {tabs.map(({ value, label: tabLabel }) => (
            <Tab
              key={value}
              value={value}
              label={tabLabel}
              id={idOf(value)}
              aria-controls={`${idOf(value)}-panel`}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`${idOf(tab)}-panel`} aria-labelledby={idOf(tab)}>
        {children(tab)}
      </Box>
    </>
  );
}
