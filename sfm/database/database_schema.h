// The tables of the scene database (see scene_database.h): COLMAP 3.8's tables, COLMAP
// 3.10's pose_priors, and ours (prefixed proj_), as SQL.
#pragma once

#include <string>
#include <vector>

namespace proj::internal {

struct DatabaseTable {
  const char* name;
  const char* columns;  // the parenthesised column list of CREATE TABLE
  const char* index;    // an extra CREATE INDEX statement, or ""
};

// Every table of a scene database, parents before the tables that refer to them.
const std::vector<DatabaseTable>& SceneDatabaseTables();

// Columns proj_enu_frame gained after its first release: added to older databases opened
// read-write (their default describes the older rows), read as the default from read-only ones.
struct DatabaseColumn {
  const char* name;
  const char* definition;  // type, constraints and DEFAULT, as in ALTER TABLE ... ADD COLUMN
};
const std::vector<DatabaseColumn>& EnuFrameDatumColumns();

// CREATE TABLE IF NOT EXISTS for `table` (with its index). A TEMP table lives only in the
// connection: a read-only database that lacks one of our tables gets an empty temporary
// one, so every statement prepares and reads find no rows.
std::string CreateTableSql(const DatabaseTable& table, bool temporary);

}  // namespace proj::internal
