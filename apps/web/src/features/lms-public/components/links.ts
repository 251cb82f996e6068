import { href } from '../../../config/paths';

/** Which side a browsing page is on: the public's, or a signed-in subject's (/s/). */
export type Side = 'public' | 'subject';

/** The council browsing pages' addresses on one side (the same pages under /s/ for a subject). */
export function linksOf(side: Side) {
  const s = side === 'subject';
  return {
    councils: () => (s ? href('s:lms-council-list') : href('lms-council-list')),
    council: (councilId: number | string) =>
      s ? href('s:lms-council', { councilId }) : href('lms-council', { councilId }),
    group: (councilId: number | string, licenceGroupId: number | string) =>
      s
        ? href('s:lms-licence-group', { councilId, licenceGroupId })
        : href('lms-licence-group', { councilId, licenceGroupId }),
    subGroup: (
      councilId: number | string,
      licenceGroupId: number | string,
      licenceSubGroupId: number | string,
    ) =>
      s
        ? href('s:lms-licence-sub-group', { councilId, licenceGroupId, licenceSubGroupId })
        : href('lms-licence-sub-group', { councilId, licenceGroupId, licenceSubGroupId }),
    portal: (id: number | string) =>
      s ? href('s:application-portal', { id }) : href('application-portal', { id }),
  };
}
