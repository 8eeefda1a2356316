import { Box, Tab, Tabs } from '@mui/material';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

interface SearchParamTabsProps<V extends string> {
  /** Names the tab list for screen readers. */
  label: string;
  /** The first tab is the default, which leaves the address without `?tab=`. */
  tabs: readonly { value: V; label: string }[];
  children: (tab: V) => ReactNode;
}

/**
 * Tabs whose choice lives in the address (`?tab=`), so a reload, a shared link or Back
 * from a page opened from a tab shows the same tab.
 */
export function SearchParamTabs<V extends string>({
  label,
  tabs,
  children,
}: SearchParamTabsProps<V>) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = tabs.find((candidate) => candidate.value === requested)?.value ?? tabs[0]!.value;
  const idOf = (value: string) => `tab-${value}`;
  return (
    <>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_event, value: V) =>
            setParams(value === tabs[0]!.value ? {} : { tab: value }, { replace: true })
          }
          aria-label={label}
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
