/** The filters as the report form holds them, with the names of the people picked (for their pills). */
export interface ReportFilterState {
  deviceIds: string[];
  groupIds: string[];
  people: { _id: string; name: string }[];
  /** A zone (features/zones): its locks and its sub-zones'; 'none' for the locks in no zone. */
  zoneId?: string | null;
}

/** The filters as the API takes them. */
export const filtersOf = (state: ReportFilterState) => ({
  deviceIds: state.deviceIds,
  groupIds: state.groupIds,
  userIds: state.people.map((person) => person._id),
  ...(state.zoneId && { zoneId: state.zoneId }),
});
